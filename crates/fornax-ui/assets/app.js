// Fornax dashboard: evidence in a side panel, outputs that expand, subagent timelines that load
// when opened, long timelines that load as they are read (never more than the page's row bound
// kept), and live updates from the server's event stream. Every link also works without it.
"use strict";

(function () {
  const body = document.body;
  const panel = document.getElementById("panel");
  const main = document.getElementById("main");

  function fetchText(url, headers) {
    return fetch(url, { headers: headers || {}, credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(r.status + " " + url);
      return r.text().then(function (text) { return { text: text, headers: r.headers }; });
    });
  }

  function withParam(url, param) {
    return url + (url.indexOf("?") >= 0 ? "&" : "?") + param;
  }

  // Evidence in the side panel.
  function openPanel(href) {
    fetchText(withParam(href, "fragment=1")).then(function (r) {
      panel.innerHTML = r.text;
      panel.hidden = false;
      panel.scrollTop = 0;
      panel.dataset.href = href;
    }).catch(function () { window.location.href = href; });
  }

  function closePanel() {
    panel.hidden = true;
    panel.innerHTML = "";
    delete panel.dataset.href;
  }

  document.addEventListener("click", function (e) {
    const link = e.target.closest("a[data-panel]");
    if (link && !e.metaKey && !e.ctrlKey && !e.shiftKey) {
      e.preventDefault();
      openPanel(link.getAttribute("href"));
      return;
    }
    if (e.target.closest(".panel .close")) {
      closePanel();
      return;
    }
    const all = e.target.closest("a.show-all");
    if (all) {
      e.preventDefault();
      const target = all.previousElementSibling;
      fetchText(all.getAttribute("href")).then(function (r) {
        target.textContent = r.text;
        all.remove();
      });
      return;
    }
    const more = e.target.closest("a#more");
    if (more) {
      e.preventDefault();
      loadMore();
    }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && !panel.hidden) closePanel();
  });

  // Subagent timelines load the first time they are opened.
  document.addEventListener("toggle", function (e) {
    const d = e.target;
    if (!(d instanceof HTMLDetailsElement) || !d.classList.contains("subagent-timeline")) return;
    if (!d.open || d.dataset.loaded) return;
    d.dataset.loaded = "1";
    const box = d.querySelector(".nested");
    fetchText(d.dataset.src).then(function (r) { box.innerHTML = r.text; })
      .catch(function () { box.textContent = "This subagent's timeline could not be read."; });
  }, true);

  // A long timeline loads page after page as it is read.
  const timeline = document.getElementById("timeline");
  let loading = false;

  function rowCount() {
    return timeline ? timeline.querySelectorAll(":scope > article.item").length : 0;
  }

  function trim() {
    const most = parseInt(timeline.dataset.maxRows || "2000", 10);
    let extra = rowCount() - most;
    if (extra <= 0) return;
    let first = timeline.firstElementChild;
    let start = parseInt(timeline.dataset.start, 10);
    while (extra > 0 && first) {
      const next = first.nextElementSibling;
      if (first.matches("article.item")) { extra -= 1; start += 1; }
      first.remove();
      first = next;
    }
    // Keep the loop header of the first row visible by starting at a page boundary link.
    timeline.dataset.start = String(start);
    const nav = document.querySelector("nav.window");
    if (nav) {
      const id = timeline.dataset.session;
      nav.innerHTML = '<a class="earlier" href="/s/' + id + "?offset=" + Math.max(0, start - 250) +
        '">← earlier items</a> · <span class="range">items ' + (start + 1) + '–<span class="range-end">' +
        timeline.dataset.end + "</span> of " + timeline.dataset.total + "</span>";
    }
  }

  function append(offset, done) {
    const id = timeline.dataset.session;
    return fetchText("/s/" + id + "/items?offset=" + offset).then(function (r) {
      const next = parseInt(r.headers.get("x-next-offset") || String(offset), 10);
      const total = parseInt(r.headers.get("x-total") || timeline.dataset.total, 10);
      if (next > offset) {
        timeline.insertAdjacentHTML("beforeend", r.text);
        timeline.dataset.end = String(next);
        timeline.dataset.total = String(total);
        trim();
        const end = document.querySelector("nav.window .range-end");
        if (end) end.textContent = String(next);
      }
      if (done) done(next, total);
    });
  }

  function loadMore() {
    const more = document.getElementById("more");
    if (!timeline || !more || loading) return;
    loading = true;
    append(parseInt(timeline.dataset.end, 10), function (next, total) {
      if (next >= total) more.remove();
      else more.textContent = "Load more (" + (total - next) + " items)";
    }).finally(function () { loading = false; });
  }

  if (timeline && "IntersectionObserver" in window) {
    const more = document.getElementById("more");
    if (more) {
      new IntersectionObserver(function (entries) {
        if (entries.some(function (e) { return e.isIntersecting; })) loadMore();
      }, { rootMargin: "800px" }).observe(more);
    }
  }

  // Live updates.
  const live = document.getElementById("live");
  if (window.EventSource && live) {
    const source = new EventSource("/events");
    source.onopen = function () { live.classList.add("on"); };
    source.onerror = function () { live.classList.remove("on"); };
    source.addEventListener("change", function (e) {
      let marker;
      try { marker = JSON.parse(e.data); } catch (_) { return; }
      const changed = String(marker.last_item) !== body.dataset.lastItem ||
        String(marker.last_finding) !== body.dataset.lastFinding ||
        String(marker.sessions) !== body.dataset.sessions;
      if (!changed) return;
      body.dataset.lastItem = String(marker.last_item);
      body.dataset.lastFinding = String(marker.last_finding);
      body.dataset.sessions = String(marker.sessions);
      onChange();
    });
  }

  function onChange() {
    const mode = body.dataset.live;
    if (mode === "refresh") {
      const active = document.activeElement;
      if (active && main.contains(active) && active.matches("input, select")) return;
      fetchText(window.location.href, { "X-Fornax-Fragment": "1" }).then(function (r) {
        main.innerHTML = r.text;
        body.dataset.refreshed = String(Date.now());
      });
    } else if (mode === "append" && timeline) {
      append(parseInt(timeline.dataset.end, 10)).then(function () {
        body.dataset.refreshed = String(Date.now());
      });
    } else {
      const notice = document.getElementById("notice");
      notice.innerHTML = 'New activity was indexed. <a href="">Reload</a> to see it.';
      notice.hidden = false;
    }
  }
})();
