/*
 * job-guard dashboard. Reads only the jobguard actuator endpoint of the node that served this page (same origin,
 * the caller's own credentials), so it shows nothing the endpoint would not show. Writes go through the endpoint's
 * write operations, and their buttons appear only when the endpoint says this caller may use them.
 * The page lives at <base>/jobguard/dashboard/index.html; the endpoint is <base>/jobguard.
 */
(function () {
  'use strict';

  var ENDPOINT = new URL('../../jobguard', window.location.href).pathname;
  var params = new URLSearchParams(window.location.search);
  var REFRESH_MS = Math.max(500, Number(params.get('refresh') || 2) * 1000);
  var SVG = 'http://www.w3.org/2000/svg';
  // outcome -> [letter, colour]; the letter keeps outcomes apart without colour
  var OUTCOMES = {
    RAN: ['R', '#2e9d4f'], FAILED: ['F', '#d12f2f'], STARTED: ['S', '#2f7fd1'], CAUGHT_UP: ['C', '#e0a100'],
    RETRIED: ['T', '#8a4fd1'], MISSED: ['M', '#b3261e'], ABANDONED: ['A', '#a5622a'], PAUSED: ['P', '#9aa3b0'],
    HISTORY_LOST: ['H', '#111111'], RETRY_PENDING: ['Q', '#e07b39'], RETRIES_EXHAUSTED: ['X', '#8f1d1d'],
    RETRY_SUPERSEDED: ['U', '#b08968'], RETRY_BY_HAND: ['B', '#4f5bd5']
  };
  // a run's outcome that ends its fire time failed for good: an operator may run it once more (retry)
  var FAILED_FOR_GOOD = { FAILED: true, RETRIES_EXHAUSTED: true };
  // outcome -> what it means, in words; a function of the node that ran (or decided) the fire time, when known
  var WORDS = {
    RAN: function (n) { return 'ran on ' + (n || 'a node'); },
    FAILED: function (n) { return 'failed on ' + (n || 'a node') + ' (the job threw)'; },
    STARTED: function (n) { return 'started on ' + (n || 'a node') + ', not finished'; },
    CAUGHT_UP: function (n) { return 'caught up late on ' + (n || 'a node') + ' (nobody had started it)'; },
    RETRIED: function (n) { return 'run again on ' + (n || 'a node') + ' (an earlier attempt died)'; },
    MISSED: function () { return 'missed: no node started it'; },
    ABANDONED: function () { return 'abandoned: its run died and is not run again'; },
    PAUSED: function () { return 'skipped: the job was paused'; },
    HISTORY_LOST: function () { return 'refused: Redis lost the job\'s history, it may have run'; },
    RETRY_PENDING: function (n) { return 'failed on ' + (n || 'a node') + ', another attempt is pending'; },
    RETRIES_EXHAUSTED: function (n) { return 'failed on ' + (n || 'a node') + ', no attempts left (the job threw)'; },
    RETRY_SUPERSEDED: function () { return 'its pending attempt gave way to the next fire time'; },
    RETRY_BY_HAND: function (n) { return 'retry by hand asked on ' + (n || 'a node') + ': one more attempt'; },
    ALREADY_RAN: function (n) { return 'skipped: already ran on ' + (n || 'another node'); },
    ASSIGNED_ELSEWHERE: function (n) { return 'left to ' + (n || 'its assigned node') + ' (fleet spread: not asked here)'; },
    BUSY: function () { return 'skipped: another run held the lease'; },
    WAIT_TIMEOUT: function () { return 'skipped: waited for the lease and timed out'; },
    STORE_ERROR: function () { return 'skipped: Redis could not be reached'; }
  };
  var timer = null;
  var lastReport = null;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') { node.textContent = attrs[k]; } else if (k === 'className') { node.className = attrs[k]; }
      else { node.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) { if (c) { node.appendChild(c); } });
    return node;
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  /** ISO-8601 duration (PT1.5S, PT-0.003S, PT2M) to milliseconds; null stays null. */
  function millis(iso) {
    if (iso === null || iso === undefined) { return null; }
    var m = /^(-)?P(?:(\d+)D)?T?(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?[\d.]+)S)?$/.exec(iso);
    if (!m) { return null; }
    var ms = ((Number(m[2] || 0) * 24 + Number(m[3] || 0)) * 60 + Number(m[4] || 0)) * 60000 + Number(m[5] || 0) * 1000;
    return m[1] ? -ms : ms;
  }

  function human(ms) {
    if (ms === null) { return '–'; }
    var a = Math.abs(ms), sign = ms < 0 ? '-' : '';
    if (a < 1000) { return sign + Math.round(a) + ' ms'; }
    if (a < 60000) { return sign + (a / 1000).toFixed(a < 10000 ? 2 : 1) + ' s'; }
    if (a < 3600000) { return sign + Math.floor(a / 60000) + ' min ' + Math.round((a % 60000) / 1000) + ' s'; }
    return sign + Math.floor(a / 3600000) + ' h ' + Math.round((a % 3600000) / 60000) + ' min';
  }

  /** An outcome in words; node: the node that ran or decided the fire time, if known. */
  function words(outcome, node) {
    if (!outcome) { return 'outcome unknown'; }
    return WORDS[outcome] ? WORDS[outcome](node) : outcome.toLowerCase().replace(/_/g, ' ');
  }

  /**
   * This node's (self's) last outcome of the job in words; a skipped fire time names the node that ran it when shown,
   * one left to the job's assigned node names that node (as this node sees the fleet now).
   */
  function lastHere(job, detail, self) {
    if (!job.lastOutcome) { return ''; }
    var node = null;
    if (job.lastOutcome === 'ASSIGNED_ELSEWHERE') {
      node = job.assignedNode && job.assignedNode !== self ? job.assignedNode : null;
    } else if (job.lastOutcome === 'ALREADY_RAN') {
      var ran = ((detail && detail.recentFires) || []).filter(function (f) {
        return f.nominalFireTime === job.lastFireTime && f.fencingToken >= 0 && f.node;
      })[0];
      node = ran ? ran.node : null;
    } else if (job.lastOutcome === 'RAN' || job.lastOutcome === 'FAILED' || job.lastOutcome === 'CAUGHT_UP'
      || job.lastOutcome === 'RETRIED' || job.lastOutcome === 'RETRY_PENDING' || job.lastOutcome === 'RETRIES_EXHAUSTED') {
      node = self || 'this node';
    }
    return 'last fire time ' + time(job.lastFireTime) + ' here: ' + words(job.lastOutcome, node);
  }

  function time(iso) {
    return iso ? new Date(iso).toISOString().replace('T', ' ').replace(/\.000Z$/, 'Z') : '–';
  }

  function csrfHeaders() {
    var headers = {};
    var meta = document.querySelector('meta[name="_csrf"]');
    var metaHeader = document.querySelector('meta[name="_csrf_header"]');
    if (meta && metaHeader) { headers[metaHeader.content] = meta.content; }
    var cookie = document.cookie.split('; ').filter(function (c) { return c.indexOf('XSRF-TOKEN=') === 0; })[0];
    if (cookie) { headers['X-XSRF-TOKEN'] = decodeURIComponent(cookie.substring('XSRF-TOKEN='.length)); }
    return headers;
  }

  function getJson(path) {
    return fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' }, cache: 'no-store' })
      .then(function (r) {
        if (!r.ok) { throw new Error('GET ' + path + ' answered HTTP ' + r.status); }
        return r.json();
      });
  }

  function jobPath(job) { return ENDPOINT + '/' + encodeURIComponent(job); }

  /** One write, after the operator confirmed it; the endpoint's answer is shown as it came. retry: fire time and attempt. */
  function write(job, action, retry) {
    var forceRelease = action === 'force-release';
    var question = forceRelease
      ? 'Force-release the run lease of "' + job + '"? The holder keeps running without exclusivity.'
      : (action === 'run-now' ? 'Run "' + job + '" once now on this node?'
        : (action === 'retry' ? 'Run fire time ' + time(retry.fireTime) + ' of "' + job + '" once more (attempt '
          + (retry.attempt + 1) + ')?' : action + ' "' + job + '" on every node?'));
    if (!window.confirm(question)) { return; }
    var headers = csrfHeaders();
    headers.Accept = 'application/json';
    var init = { method: forceRelease ? 'DELETE' : 'POST', credentials: 'same-origin', headers: headers };
    if (!forceRelease) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(retry ? { action: action, fireTime: retry.fireTime } : { action: action });
    }
    fetch(jobPath(job), init).then(function (r) {
      return r.text().then(function (body) {
        var message = body;
        try { message = JSON.parse(body).message || body; } catch (e) { /* not JSON: show it as is */ }
        showAnswer(action + ' ' + job + ': HTTP ' + r.status + ' – ' + message, r.ok);
        refresh();
      });
    }).catch(function (e) { showAnswer(action + ' ' + job + ' failed: ' + e.message, false); });
  }

  function showAnswer(text, ok) {
    var box = document.getElementById('answer');
    box.hidden = false;
    box.textContent = text;
    box.className = ok ? '' : 'refused';
  }

  function state(job, report, detail) {
    var paused = report.paused && report.paused[job.name];
    var lease = (report.runLeases || []).filter(function (l) { return l.job === job.name; })[0];
    var newest = detail && detail.recentFires && detail.recentFires[0];
    if (paused) {
      return ['paused', 'paused', 'by ' + (paused.by || '?') + ' (node ' + (paused.node || '?') + ') since ' + time(paused.pausedAt)];
    }
    if (lease) {
      return ['running', 'running on ' + lease.holder, 'fire time ' + time(lease.nominalFireTime) + ', lease '
        + human(millis(lease.expiresIn)) + ' left, token ' + lease.fencingToken];
    }
    var loss = report.dataLoss;
    var until = loss && loss.jobs && loss.jobs[job.name];
    if (until) {
      return ['recovering', 'recovering from a data loss until ' + time(until),
        'Redis lost this job\'s history; its fire times before ' + time(until) + ' are refused: they may have run'];
    }
    // a node without the dataLoss field: infer the recovery from the newest fire time
    if (!('dataLoss' in report) && newest && newest.outcome === 'HISTORY_LOST') {
      return ['recovering', 'recovering from data loss', 'Redis lost this job\'s history; fire times are refused until it is safe'];
    }
    return ['idle', 'idle', lastHere(job, detail, report.node)];
  }

  function timeline(detail) {
    var fires = ((detail && detail.recentFires) || []).slice().reverse();
    var w = 36, gap = 4, h = 44;
    var box = svg('svg', { 'class': 'timeline', width: Math.max(1, fires.length) * (w + gap), height: h });
    fires.forEach(function (f, i) {
      var kind = OUTCOMES[f.outcome] || ['?', '#6b7380'];
      var delay = f.at && f.fencingToken >= 0 ? new Date(f.at) - new Date(f.nominalFireTime) : null;
      var attempt = f.attempt || 1;
      var g = svg('g', { 'class': 'fire', 'data-fire-time': f.nominalFireTime, 'data-node': f.node || '',
        'data-outcome': f.outcome || '', 'data-token': String(f.fencingToken), 'data-attempt': String(attempt) });
      var title = svg('title', {});
      title.textContent = 'fire time ' + time(f.nominalFireTime) + '\n' + words(f.outcome, f.node)
        + (f.fencingToken >= 0 ? '\nattempt ' + attempt : '')
        + (delay === null ? '' : '\nstart delay ' + human(delay))
        + (f.duration ? '\nduration ' + human(millis(f.duration)) : '')
        + (f.fencingToken >= 0 ? '\nfencing token ' + f.fencingToken : '\nno run (no fencing token)');
      g.appendChild(title);
      var x = i * (w + gap);
      var rect = svg('rect', { x: x, y: 2, width: w, height: 22, rx: 3, fill: kind[1] });
      if (f.outcome === 'MISSED' || f.outcome === 'HISTORY_LOST') { rect.setAttribute('stroke', '#ff4d4d'); rect.setAttribute('stroke-width', 2); }
      g.appendChild(rect);
      var letter = svg('text', { 'class': 'letter', x: x + w / 2, y: 17, 'text-anchor': 'middle' });
      // a later attempt of its fire time carries its number: R2 is attempt 2 that ran
      letter.textContent = kind[0] + (f.fencingToken >= 0 && attempt > 1 ? attempt : '');
      g.appendChild(letter);
      var node = svg('text', { 'class': 'node', x: x + w / 2, y: 36, 'text-anchor': 'middle' });
      node.textContent = shortNode(f.node);
      g.appendChild(node);
      box.appendChild(g);
    });
    return box;
  }

  /**
   * The job's latest started fire time when it failed for good, else null: its newest entry that tells how its run
   * ended (a run, or an earlier retry by hand) is FAILED or RETRIES_EXHAUSTED. The same rule the store applies
   * (run-retry-by-hand.lua); the store has the last word, this only decides whether to offer the button.
   */
  function retryable(detail) {
    var fires = (detail && detail.recentFires) || [];
    var latest = null;
    fires.forEach(function (f) {
      if (f.fencingToken >= 0 && (latest === null || new Date(f.nominalFireTime) > new Date(latest))) { latest = f.nominalFireTime; }
    });
    if (latest === null) { return null; }
    var newest = fires.filter(function (f) {
      return f.nominalFireTime === latest && (f.fencingToken >= 0 || f.outcome === 'RETRY_BY_HAND');
    })[0];
    return newest && FAILED_FOR_GOOD[newest.outcome] ? { fireTime: latest, attempt: newest.attempt || 1 } : null;
  }

  /** The job's timeline, with a retry button under it when its latest fire time failed for good and writes are allowed. */
  function fireTimes(job, detail, writes) {
    var cell = el('td', {}, [timeline(detail)]);
    var retry = writes.control ? retryable(detail) : null;
    if (retry) {
      var b = el('button', { type: 'button', 'data-action': 'retry', 'data-fire-time': retry.fireTime,
        text: 'Retry ' + time(retry.fireTime) + ' (attempt ' + (retry.attempt + 1) + ')' });
      b.addEventListener('click', function () { write(job.name, 'retry', retry); });
      cell.appendChild(el('div', { className: 'retry' }, [b]));
    }
    return cell;
  }

  /** The end of a node id (ids usually share a prefix, host names or pod names); the full id is in the title. */
  function shortNode(id) {
    if (!id) { return '?'; }
    return id.length <= 6 ? id : '…' + id.substring(id.length - 5);
  }

  /** The next fire time; a paused job's says it will not run (every node skips it until resumed). */
  function nextCell(job, stateName) {
    if (stateName === 'paused') {
      return el('td', { className: 'next-paused' }, [el('span', { text: 'paused: will not run' }),
        el('div', { className: 'sub mono', text: 'skips ' + time(job.nextNominalFireTime) + ' until resumed' })]);
    }
    return el('td', { className: 'mono', text: time(job.nextNominalFireTime) });
  }

  /**
   * The node that asks Redis for the job's fire times (the fleet spread's assigned node, as this node sees the fleet);
   * without one, this node asks for every fire time it fires (spread off, a WAIT, fixed-delay or Quartz job, or a
   * view of the fleet that is not fresh).
   */
  function assignedCell(job, self) {
    if (!job.assignedNode) {
      return el('td', { className: 'assigned', 'data-assigned-node': '' }, [el('span', { text: '–' }),
        el('div', { className: 'sub', text: 'no assigned node here: this node asks for every fire time it fires' })]);
    }
    return el('td', { className: 'assigned', 'data-assigned-node': job.assignedNode }, [
      el('span', { className: 'mono', text: 'asks: ' + job.assignedNode }),
      el('div', { className: 'sub', text: job.assignedNode === self ? 'this node'
        : 'this node leaves its fire times to it, and takes one over if not covered in time' })]);
  }

  function renderJobs(report, details) {
    var body = document.querySelector('#jobs tbody');
    var writes = report.writes || {};
    var canWrite = writes.control || writes.forceRelease;
    document.getElementById('actions-head').hidden = !canWrite;
    body.textContent = '';
    report.jobs.forEach(function (job, i) {
      var s = state(job, report, details[i]);
      var row = el('tr', { 'data-job': job.name, 'data-state': s[0] }, [
        el('td', {}, [el('strong', { text: job.name }), el('div', { className: 'sub mono', text: job.method || '' })]),
        el('td', { className: 'mono', text: job.schedule || '–' }),
        assignedCell(job, report.node),
        el('td', {}, [el('span', { className: 'state state-' + s[0], text: s[1] }), el('div', { className: 'sub', text: s[2] })]),
        nextCell(job, s[0]),
        fireTimes(job, details[i], writes)
      ]);
      if (canWrite) {
        var actions = el('td', { className: 'actions' });
        var buttons = writes.control ? ['pause', 'resume', 'run-now'] : [];
        if (writes.forceRelease) { buttons.push('force-release'); }
        buttons.forEach(function (action) {
          var b = el('button', { type: 'button', 'data-action': action, text: action,
            className: action === 'force-release' ? 'danger' : '' });
          b.addEventListener('click', function () { write(job.name, action); });
          actions.appendChild(b);
        });
        row.appendChild(actions);
      }
      body.appendChild(row);
    });
  }

  function renderNodes(report) {
    var body = document.querySelector('#nodes tbody');
    body.textContent = '';
    var now = Date.now();
    (report.nodes || []).forEach(function (n) {
      var ran = Object.keys(n.jobsRan || {}).sort().map(function (j) { return j + ': ' + n.jobsRan[j]; }).join(', ');
      var lead = millis(n.clockLead);
      var tolerance = millis(report.skewTolerance);
      var leadCell = el('td', { className: 'mono', text: lead === null ? '–' : human(lead) });
      if (lead !== null && tolerance && lead > tolerance / 2) { leadCell.style.color = '#b3261e'; }
      body.appendChild(el('tr', { 'data-node': n.node, className: n.self ? 'self' : '' }, [
        el('td', { className: 'mono', text: n.node }),
        el('td', { text: n.self ? 'now (answering)' : (n.lastSeen ? human(now - new Date(n.lastSeen)) + ' ago' : '–') }),
        leadCell,
        el('td', { className: 'mono', text: ran || '–' })
      ]));
    });
  }

  function renderSummary(report) {
    document.getElementById('summary').textContent = 'namespace ' + report.namespace + ' · answered by node '
      + report.node + ' · its clock skew ' + human(millis(report.clockSkew)) + ' (tolerance '
      + human(millis(report.skewTolerance)) + ') · writes ' + (report.writes && report.writes.control ? 'allowed' : 'off');
  }

  function renderLegend() {
    var legend = document.getElementById('legend');
    if (legend.childNodes.length) { return; }
    Object.keys(OUTCOMES).forEach(function (o) {
      var swatch = el('i');
      swatch.style.background = OUTCOMES[o][1];
      legend.appendChild(el('span', { className: 'key', 'data-outcome': o }, [swatch,
        document.createTextNode(OUTCOMES[o][0] + ' ' + words(o, null).replace(/ on a node\b/, ''))]));
    });
  }

  function refresh() {
    clearTimeout(timer);
    getJson(ENDPOINT).then(function (report) {
      lastReport = report;
      return Promise.all(report.jobs.map(function (job) {
        return getJson(jobPath(job.name)).catch(function () { return null; });
      })).then(function (details) {
        renderSummary(report);
        renderJobs(report, details);
        renderNodes(report);
        renderLegend();
        document.getElementById('error').hidden = true;
        document.getElementById('refreshed').textContent = 'refreshed ' + new Date().toLocaleTimeString()
          + ' (every ' + REFRESH_MS / 1000 + ' s)';
        document.body.setAttribute('data-refreshed', String(Date.now()));
      });
    }).catch(function (e) {
      var box = document.getElementById('error');
      box.hidden = false;
      box.textContent = e.message + (lastReport ? ' (showing the last answer)' : '');
    }).then(function () { timer = setTimeout(refresh, REFRESH_MS); });
  }

  refresh();
}());
