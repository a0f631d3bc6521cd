// The krill crawl console: renders the snapshots its WebSocket pushes; controls go through POST with the token.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const points = [];              // [elapsedSeconds, pages] for the pages/s chart
  const MAX_POINTS = 300;
  let last = null;                // the last snapshot's crawl object
  // A message is either full or the changes since the one before it: the host table comes only
  // when it changed, the recent lines and errors only once each. The page keeps the rest.
  const KEEP_LINES = 50;
  let hosts = [];
  let recent = [];
  let recentErrors = [];
  let sortKey = 'queued';
  let sortAsc = false;

  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token) { $('token').value = token; }

  function connect() {
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    ws.onmessage = (e) => render(JSON.parse(e.data));
    ws.onclose = () => {
      if (!last || last.stoppedBy === null) {
        setState('offline', 'offline');
        setTimeout(connect, 2000);
      }
    };
  }

  function setState(text, cls) {
    const s = $('state');
    s.textContent = text;
    s.className = 'state ' + cls;
  }

  function text(id, value, title) {
    const el = $(id);
    el.textContent = value;
    if (title !== undefined) { el.title = title; }
  }

  function bytes(n) {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    let v = n;
    while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
    return (i === 0 ? v : v.toFixed(1)) + ' ' + units[i];
  }

  function duration(s) {
    if (!isFinite(s)) { return '–'; }
    const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = Math.floor(s % 60);
    return (h ? h + 'h ' : '') + (h || m ? m + 'm ' : '') + sec + 's';
  }

  function pairs(id, obj) {
    const dl = $(id);
    dl.replaceChildren();
    for (const [k, v] of Object.entries(obj)) {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      dd.textContent = v;
      dd.dataset.key = k;
      dl.append(dt, dd);
    }
  }

  function render(msg) {
    const c = msg.crawl;
    if (last && last.stoppedBy !== null && c.stoppedBy !== null) {
      return; // the final numbers stay as they are
    }
    last = c;
    if (c.hosts) { hosts = c.hosts; }
    recent = (msg.full ? [] : recent).concat(msg.recent).slice(-KEEP_LINES);
    recentErrors = (msg.full ? [] : recentErrors).concat(msg.errors).slice(-KEEP_LINES);
    if (c.stoppedBy !== null) {
      setState('ended: ' + c.stoppedBy, 'ended');
    } else if (c.paused) {
      setState('paused', 'paused');
    } else {
      setState('running', 'running');
    }
    points.push([c.elapsedSeconds, c.pages]);
    if (points.length > MAX_POINTS) { points.shift(); }
    const rate = currentRate();
    const errors = Object.values(c.errors).reduce((a, b) => a + b, 0);
    text('elapsed', duration(c.elapsedSeconds));
    text('pages', c.pages);
    // a resumed crawl counts its earlier runs' pages too (as summary.json does): this run's beside it
    $('runBox').hidden = c.runPages === c.pages;
    text('runPages', c.runPages);
    text('rate', rate.toFixed(1));
    text('requests', c.requests);
    text('bytes', bytes(c.bytes), c.bytes + ' bytes');
    $('bytes').dataset.exact = c.bytes;
    text('inflight', c.inFlight);
    text('queued', c.queued);
    text('errorCount', errors);
    // --max-pages limits this run's pages
    const left = c.maxPages > 0 && c.maxPages < 9e15 && rate > 0 ? (Math.min(c.maxPages, c.runPages + c.queued) - c.runPages) / rate
      : (c.queued > 0 && rate > 0 ? c.queued / rate : NaN);
    text('left', c.stoppedBy !== null ? '0s' : duration(left), 'estimate from the queue (or the page limit) and the current rate');
    pairs('statuses', c.statuses);
    pairs('errorKinds', c.errors);
    pairs('dnsRobots', {
      'DNS lookups': c.dnsLookups, 'DNS cached': c.dnsCached, 'DNS failed': c.dnsFailures,
      'DNS mean ms': c.dnsMeanMillis, 'robots.txt fetches': c.robotsFetches,
      'robots.txt disallowed': c.robotsDisallowed, 'retries': c.retries,
    });
    pairs('seen', { 'URLs seen': c.seen, 'mode': c.seenSet, 'hosts': c.hostCount });
    drawChart();
    if (c.hosts) { renderHosts(); }
    if (msg.full || msg.recent.length) { renderRecent('recent', recent, (r) => [r.record.status || '', r.record.url]); }
    if (msg.full || msg.errors.length) { renderRecent('recentErrors', recentErrors, (r) => [r.record.url, r.record.error]); }
    renderNodes(c.nodes, c.ownership);
  }

  function currentRate() {
    // over the last ~10 s of points, so one slow tick does not swing the figure
    if (points.length < 2) { return 0; }
    const end = points[points.length - 1];
    let i = points.length - 2;
    while (i > 0 && end[0] - points[i][0] < 10) { i--; }
    const dt = end[0] - points[i][0];
    return dt > 0 ? (end[1] - points[i][1]) / dt : 0;
  }

  function drawChart() {
    const rates = [];
    for (let i = 1; i < points.length; i++) {
      const dt = points[i][0] - points[i - 1][0];
      rates.push(dt > 0 ? (points[i][1] - points[i - 1][1]) / dt : 0);
    }
    const max = Math.max(1, ...rates);
    const step = 600 / Math.max(1, MAX_POINTS - 1);
    $('line').setAttribute('points', rates.map((r, i) => (i * step).toFixed(1) + ',' + (118 - r / max * 114).toFixed(1)).join(' '));
    text('chartMax', 'max ' + max.toFixed(1) + '/s');
  }

  function renderHosts() {
    if (!last) { return; }
    const q = $('filter').value.trim().toLowerCase();
    const rows = hosts.filter((h) => !q || [h.host, h.state, h.address || '', h.why].join(' ').toLowerCase().includes(q));
    rows.sort((a, b) => {
      const x = a[sortKey], y = b[sortKey];
      const d = typeof x === 'number' ? x - y : String(x).localeCompare(String(y));
      return sortAsc ? d : -d;
    });
    const body = $('hosts').tBodies[0];
    body.replaceChildren(...rows.map((h) => row([h.host, h.state, h.queued, h.inFlight, h.delayMillis, h.backoffMillis,
      h.address || '', h.why], [2, 3, 4, 5])));
    text('hostCount', '(' + rows.length + ' shown of ' + last.hostCount + ')');
  }

  function row(cells, numeric) {
    const tr = document.createElement('tr');
    cells.forEach((v, i) => {
      const td = document.createElement('td');
      td.textContent = v;
      if (numeric && numeric.includes(i)) { td.className = 'num'; }
      tr.append(td);
    });
    return tr;
  }

  function renderRecent(id, lines, cells) {
    const body = $(id).tBodies[0];
    body.replaceChildren(...lines.slice().reverse().map((r) => {
      const tr = row([r.line].concat(cells(r), [r.warcFile ? r.warcFile + ' @ ' + r.warcOffset : '']));
      tr.title = 'crawl.jsonl line ' + r.line + (r.warcFile ? ', WARC record at byte ' + r.warcOffset + ' of ' + r.warcFile : '');
      tr.children[tr.children.length - 2].className = 'url';
      if (r.error) { tr.className = 'error'; }
      return tr;
    }));
  }

  let lastCluster = '';
  function renderNodes(nodes, ownership) {
    // rebuilt only when it changed: a person selecting text in it, or reading it, keeps the rows
    const key = JSON.stringify([nodes, ownership]);
    if (key === lastCluster) { return; }
    lastCluster = key;
    $('clusterBox').hidden = nodes.length === 0;
    $('nodes').tBodies[0].replaceChildren(...nodes.map((n) => {
      const tr = row([n.id + (n.self ? ' (this node)' : ''), n.state, n.partitions.join(', ')]);
      tr.className = n.alive ? 'alive' : 'gone';
      tr.dataset.node = n.id;
      return tr;
    }));
    $('ownership').tBodies[0].replaceChildren(...ownership.slice().reverse().map((o) =>
      row([duration(o.atSeconds), o.partition, o.from || '–', o.to || '–'], [1])));
  }

  async function control(action, body) {
    const res = await fetch('/api/' + action, {
      method: 'POST', body: body || '', headers: { 'X-Console-Token': $('token').value },
    });
    let msg;
    try { msg = (await res.json()).message; } catch (e) { msg = res.statusText; }
    text('message', (res.ok ? '' : res.status + ': ') + msg);
  }

  $('pause').onclick = () => control('pause');
  $('resume').onclick = () => control('resume');
  $('stop').onclick = () => { if (confirm('Stop the crawl? Fetches in flight finish, then the summary is written.')) { control('stop'); } };
  $('addSeeds').onclick = () => control('seeds', $('seeds').value);
  $('filter').oninput = renderHosts;
  for (const th of document.querySelectorAll('#hosts th[data-key]')) {
    th.onclick = () => {
      sortAsc = sortKey === th.dataset.key ? !sortAsc : th.dataset.key === 'host';
      sortKey = th.dataset.key;
      document.querySelectorAll('#hosts th').forEach((x) => x.classList.remove('sorted', 'asc'));
      th.classList.add('sorted');
      if (sortAsc) { th.classList.add('asc'); }
      renderHosts();
    };
  }
  connect();
})();
