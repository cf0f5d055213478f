/**
 * The memory browser's inline script: plain DOM and fetch, no framework, no external assets. It loads the
 * character list, then per tab: Recent (N.E.K.O.'s recent-file protocol: fingerprint + identity token, a
 * 409 shows a reload prompt and never replays the old chat; a save is announced as `memory_edited` on the
 * `neko_page_channel` BroadcastChannel as N.E.K.O.'s page does), Facts (search, inline edit), Reflections
 * (score decay, source facts, journal history, confirm / deny / archive), Persona (sections, read-only card
 * entries, inline edit, archive) and Settings (the two toggles, the funnel as an inline SVG bar chart).
 */
export const script = `
(function(){
  var picker=document.getElementById("character"),status=document.getElementById("status");
  var data=null,recent=null,openHistory={};
  function $(id){return document.getElementById(id)}
  function el(tag,text,cls){var e=document.createElement(tag);if(text!==undefined&&text!==null)e.textContent=String(text);if(cls)e.className=cls;return e}
  function btn(text,onClick,cls){var b=el("button",text,cls);b.type="button";b.addEventListener("click",onClick);return b}
  function req(url,body){
    var init=body===undefined?{}:{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify(body)};
    return fetch(url,init).then(function(r){return r.text().then(function(t){var b=null;try{b=JSON.parse(t)}catch(e){b={error:t}}return{status:r.status,ok:r.ok,body:b}})});
  }
  function name(){return picker.value}
  function say(text){status.textContent=text}
  function fmt(n){return n===null||n===undefined?"∞":String(n)}
  function editor(text,onSave,label){
    var box=el("div","","editor"),ta=el("textarea");ta.value=text;ta.setAttribute("aria-label",label);ta.rows=3;
    box.appendChild(ta);var row=el("div","","row");box.appendChild(row);
    row.appendChild(btn("Save",function(){onSave(ta.value)},"primary"));
    row.appendChild(btn("Cancel",function(){render()}));
    setTimeout(function(){ta.focus()},0);return box;
  }
  function edit(kind,id,text){
    return req("/api/memory/entry_edit",{lanlan_name:name(),kind:kind,id:id,text:text}).then(function(r){
      if(r.ok&&r.body.success){say("Saved "+id+".");return load()}
      say(r.status===409?id+" is read-only.":"Could not save "+id+": "+(r.body.error||r.status));
    });
  }
  function act(kind,id,action){
    return req("/api/memory/entry_action",{lanlan_name:name(),kind:kind,id:id,action:action}).then(function(r){
      if(r.ok&&r.body.success){say(id+" is now "+r.body.status+".");if(kind==="reflection")openHistory[id]=true;return load()}
      say(r.status===409?id+" cannot "+action+" (status "+r.body.status+").":"Could not "+action+" "+id+": "+(r.body.error||r.status));
    });
  }
  function history(id,target){
    req("/api/memory/statecharts/"+encodeURIComponent(name())+"/history/"+encodeURIComponent(id)).then(function(r){
      target.textContent="";var steps=(r.body&&r.body.history)||[];
      if(!steps.length){target.appendChild(el("p","No journal events mention this entry.","muted"));return}
      var t=el("table","","history"),head=el("tr");["event","time","from","to"].forEach(function(x){head.appendChild(el("th",x))});t.appendChild(head);
      steps.forEach(function(s){var tr=el("tr");[s.type,s.ts,s.from||"",s.to||""].forEach(function(x){tr.appendChild(el("td",x))});t.appendChild(tr)});
      target.appendChild(t);
    });
  }
  function renderFacts(){
    var list=$("fact-list"),q=$("fact-search").value.trim().toLowerCase();list.textContent="";
    var facts=data.facts.filter(function(f){return !q||f.text.toLowerCase().indexOf(q)>=0});
    $("fact-count").textContent=facts.length+" of "+data.facts.length+" facts";
    facts.forEach(function(f){
      var li=el("li","","card"),text=el("p",f.text,"text");li.dataset.id=f.id;li.appendChild(text);
      li.appendChild(el("p",f.id+" · "+f.entity+" · importance "+f.importance+" · "+f.created_at+(f.absorbed?" · absorbed":""),"muted"));
      var row=el("div","","row");li.appendChild(row);
      row.appendChild(btn("Edit",function(){li.replaceChild(editor(f.text,function(t){edit("fact",f.id,t)},"Fact text"),row)}));
      list.appendChild(li);
    });
  }
  function renderReflections(){
    var list=$("reflection-list"),facts={};list.textContent="";data.facts.forEach(function(f){facts[f.id]=f.text});
    if(!data.reflections.length)list.appendChild(el("li","No reflections yet.","muted"));
    data.reflections.forEach(function(r){
      var li=el("li","","card");li.dataset.id=r.id;li.appendChild(el("p",r.text,"text"));
      var meta=el("p","","muted");meta.appendChild(el("span",r.status,"badge status-"+r.status));
      meta.appendChild(document.createTextNode(" "+r.id+" · "+r.entity+" · score now "+fmt(r.score.now)+" → 7 d "+fmt(r.score.in_7d)+" → 30 d "+fmt(r.score.in_30d)+" (reinforcement "+r.reinforcement+", disputation "+r.disputation+")"));
      li.appendChild(meta);
      if(r.source_fact_ids.length){var ul=el("ul","","sources");r.source_fact_ids.forEach(function(id){ul.appendChild(el("li",facts[id]?facts[id]+" ("+id+")":id))});li.appendChild(el("p","Source facts","label"));li.appendChild(ul)}
      var row=el("div","","row"),hist=el("div","","hist");li.appendChild(row);li.appendChild(hist);
      ["confirm","deny","archive"].forEach(function(a){row.appendChild(btn(a[0].toUpperCase()+a.slice(1),function(){act("reflection",r.id,a)}))});
      row.appendChild(btn("History",function(){openHistory[r.id]=true;history(r.id,hist)}));
      if(openHistory[r.id])history(r.id,hist);
      list.appendChild(li);
    });
  }
  function renderPersona(){
    var root=$("persona-list");root.textContent="";
    data.persona.forEach(function(s){
      var sec=el("section","","psection");sec.appendChild(el("h3",s.section));var ul=el("ul","","cards");sec.appendChild(ul);
      if(!s.entries.length)ul.appendChild(el("li","No entries.","muted"));
      s.entries.forEach(function(e){
        var li=el("li","","card");li.dataset.id=e.id;li.appendChild(el("p",e.text,"text"));
        var meta=el("p","","muted");if(e.protected)meta.appendChild(el("span","card · read-only","badge"));if(e.suppress)meta.appendChild(el("span","suppressed","badge"));
        meta.appendChild(document.createTextNode(" "+e.id+" · "+e.source+" · score "+fmt(e.score)+" · "+e.version_history+" earlier version"+(e.version_history===1?"":"s")));
        li.appendChild(meta);
        if(!e.protected){var row=el("div","","row");li.appendChild(row);
          row.appendChild(btn("Edit",function(){li.replaceChild(editor(e.text,function(t){edit("persona",e.id,t)},"Persona entry text"),row)}));
          row.appendChild(btn("Archive",function(){act("persona",e.id,"archive")}));}
        ul.appendChild(li);
      });
      root.appendChild(sec);
    });
  }
  function textOf(c){if(typeof c==="string")return c;if(Array.isArray(c))return c.map(function(p){return typeof p==="string"?p:(p&&p.text)||""}).join("");return ""}
  function toChat(content){
    var items=[];try{items=JSON.parse(content)}catch(e){items=[]}if(!Array.isArray(items))items=[];
    return items.map(function(i){
      var role=i.type||i.role||(i.data&&i.data.type)||"ai";role=role==="user"?"human":role==="assistant"?"ai":role;
      if(role!=="human"&&role!=="ai"&&role!=="system")role="ai";
      return{role:role,text:textOf(i.data?i.data.content:i.content)};
    });
  }
  function loadRecent(){
    var file="recent_"+name()+".json";recent=null;$("recent-conflict").hidden=true;$("recent-msg").textContent="";
    return req("/api/memory/recent_file?filename="+encodeURIComponent(file)).then(function(r){
      if(!r.ok){recent=null;$("recent-msg").textContent=r.status===404?"No recent history for "+name()+".":"Could not load recent history: "+(r.body.error||r.status);renderRecent();return}
      var chat=toChat(r.body.content),memo=chat.length&&chat[0].role==="system"?chat.shift().text:null;
      recent={file:file,fingerprint:r.body.fingerprint,identity:r.body.identity_token,memo:memo,messages:chat};renderRecent();
    });
  }
  function renderRecent(){
    var list=$("recent-list");list.textContent="";$("recent-save").disabled=!recent;$("recent-clear").disabled=!recent;
    $("memo").value=recent&&recent.memo!==null?recent.memo:"";$("memo").disabled=!recent;
    if(!recent)return;
    recent.messages.forEach(function(m,i){
      var li=el("li","","card msg-"+m.role),lab=el("label",m.role==="human"?"User":m.role==="ai"?"Character":"System","label"),ta=el("textarea");
      ta.id="msg-"+i;lab.htmlFor=ta.id;ta.value=m.text;ta.rows=2;ta.addEventListener("input",function(){m.text=ta.value});
      li.appendChild(lab);li.appendChild(ta);var row=el("div","","row");li.appendChild(row);
      row.appendChild(btn("Delete",function(){recent.messages.splice(i,1);renderRecent()}));list.appendChild(li);
    });
    if(!recent.messages.length)list.appendChild(el("li","No messages.","muted"));
  }
  function saveRecent(){
    if(!recent)return;var memo=$("memo").value,chat=[];
    if(recent.memo!==null||memo.trim()!=="")chat.push({role:"system",text:memo});
    recent.messages.forEach(function(m){chat.push({role:m.role,text:m.text})});
    req("/api/memory/recent_file/save",{filename:recent.file,fingerprint:recent.fingerprint,identity_token:recent.identity,chat:chat}).then(function(r){
      if(r.status===409){$("recent-conflict").hidden=false;$("recent-msg").textContent="";$("recent-reload").focus();return}
      if(!r.ok||!r.body.success){$("recent-msg").textContent="Could not save: "+(r.body.error||r.status);return}
      recent.fingerprint=r.body.fingerprint;recent.identity=r.body.identity_token;recent.memo=chat.length&&chat[0].role==="system"?memo:null;
      $("recent-msg").textContent="Saved.";
      try{new BroadcastChannel("neko_page_channel").postMessage({action:"memory_edited",catgirl_name:name()})}catch(e){}
    });
  }
  function funnel(){
    req("/api/memory/funnel/"+encodeURIComponent(name())).then(function(r){
      var box=$("funnel");box.textContent="";var counts=(r.body&&r.body.counts)||{},keys=Object.keys(counts);
      var max=Math.max(1,Math.max.apply(null,keys.map(function(k){return counts[k]}).concat([0]))),row=22,w=420,lw=190;
      var ns="http://www.w3.org/2000/svg",svg=document.createElementNS(ns,"svg");
      svg.setAttribute("viewBox","0 0 "+w+" "+(keys.length*row+4));svg.setAttribute("role","img");svg.setAttribute("aria-label","Lifecycle transitions in the last 7 days");
      keys.forEach(function(k,i){
        var y=i*row+2,t=document.createElementNS(ns,"text"),rect=document.createElementNS(ns,"rect"),n=document.createElementNS(ns,"text");
        t.setAttribute("x","0");t.setAttribute("y",String(y+15));t.textContent=k.replace(/_/g," ");
        rect.setAttribute("x",String(lw));rect.setAttribute("y",String(y+3));rect.setAttribute("height","15");rect.setAttribute("width",String(Math.max(1,(w-lw-40)*counts[k]/max)));rect.setAttribute("class","bar");
        n.setAttribute("x",String(lw+Math.max(1,(w-lw-40)*counts[k]/max)+4));n.setAttribute("y",String(y+15));n.textContent=String(counts[k]);
        svg.appendChild(t);svg.appendChild(rect);svg.appendChild(n);
      });
      box.appendChild(svg);
    });
  }
  function toggles(){
    [["powerful","/api/memory/powerful_memory_config"],["review","/api/memory/review_config"]].forEach(function(p){
      req(p[1]).then(function(r){$(p[0]).checked=!!r.body.enabled});
    });
  }
  function render(){if(!data)return;renderFacts();renderReflections();renderPersona()}
  function load(){
    if(!name()){say("No character selected.");return Promise.resolve()}
    return req("/api/memory/browser/"+encodeURIComponent(name())).then(function(r){
      if(!r.ok||!r.body.facts){say("Could not load "+name()+": "+(r.body.detail||r.body.message||r.status));return}
      data=r.body;render();funnel();
      if(!/^Saved|is now|cannot|read-only|Could not/.test(status.textContent))say(name()+": "+data.facts.length+" facts, "+data.reflections.length+" reflections.");
    });
  }
  function select(tab){
    document.querySelectorAll("[role=tab]").forEach(function(t){var on=t===tab;t.setAttribute("aria-selected",String(on));t.tabIndex=on?0:-1;$(t.getAttribute("aria-controls")).hidden=!on});
  }
  var tabs=Array.prototype.slice.call(document.querySelectorAll("[role=tab]"));
  tabs.forEach(function(t,i){
    t.addEventListener("click",function(){select(t)});
    t.addEventListener("keydown",function(e){var d=e.key==="ArrowRight"?1:e.key==="ArrowLeft"?-1:0;if(d){e.preventDefault();var n=tabs[(i+d+tabs.length)%tabs.length];select(n);n.focus()}});
  });
  $("fact-search").addEventListener("input",renderFacts);
  $("recent-save").addEventListener("click",saveRecent);
  $("recent-clear").addEventListener("click",function(){if(recent){recent.messages=[];renderRecent();$("recent-msg").textContent="Cleared (the memo is kept); save to apply."}});
  $("recent-reload").addEventListener("click",loadRecent);
  $("memo").addEventListener("input",function(){if(recent)recent.memo=$("memo").value});
  [["powerful","/api/memory/powerful_memory_config","Powerful memory"],["review","/api/memory/review_config","Auto review"]].forEach(function(p){
    $(p[0]).addEventListener("change",function(){var on=$(p[0]).checked;
      req(p[1],{enabled:on}).then(function(r){if(r.ok&&r.body.success)$(p[0]+"-msg").textContent=p[2]+" "+(on?"on":"off")+".";else{$(p[0]).checked=!on;$(p[0]+"-msg").textContent="Could not change: "+(r.body.error||r.status)}});
    });
  });
  picker.addEventListener("change",function(){openHistory={};say("");load();loadRecent()});
  toggles();
  req("/api/memory/statecharts/characters").then(function(r){
    (r.body.characters||[]).forEach(function(c){var o=el("option",c);o.value=c;picker.appendChild(o)});
    var want=new URLSearchParams(location.search).get("character");if(want&&r.body.characters.indexOf(want)>=0)picker.value=want;
    load();loadRecent();
  });
})();`
