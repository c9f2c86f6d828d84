/*
 * job-guard dashboard: the run history section, kept apart from dashboard.js. Reads
 * <base>/jobguard/{job}/history/json page by page (newest first; "Older" follows the page's cursor, "Newer" goes back
 * one page, "Newest" starts again), filtered by outcome, and links the CSV and NDJSON exports of the same filter.
 * Same origin, the caller's own credentials: it shows nothing the endpoint would not.
 */
(function () {
  'use strict';

  var ENDPOINT = new URL('../../jobguard', window.location.href).pathname;
  var PAGE = 25;
  // outcome -> words; the select's values stay the endpoint's constants
  var WORDS = {
    RAN: 'ran', FAILED: 'failed (the job threw)', RETRY_PENDING: 'failed, a retry is pending',
    RETRIES_EXHAUSTED: 'failed, no attempt left', RETRY_SUPERSEDED: 'retry dropped: the next fire time came',
    STARTED: 'started, not finished', CAUGHT_UP: 'caught up late', RETRIED: 'run again (an earlier attempt died)',
    MISSED: 'missed: no node started it', ABANDONED: 'abandoned: its run died', PAUSED: 'skipped: the job was paused',
    HISTORY_LOST: 'refused: Redis lost the job\'s history', LEASE_LOST: 'lease lost while running'
  };
  var state = { job: null, cursor: null, back: [], next: null };

  function $(id) { return document.getElementById(id); }

  function words(outcome) {
    return WORDS[outcome] || String(outcome || 'unknown').toLowerCase().replace(/_/g, ' ');
  }

  function time(iso) {
    return iso ? new Date(iso).toISOString().replace('T', ' ').replace(/\.000Z$/, 'Z') : '–';
  }

  function cell(text, cls) {
    var td = document.createElement('td');
    td.textContent = text;
    if (cls) { td.className = cls; }
    return td;
  }

  function query(format) {
    var params = new URLSearchParams();
    var outcome = $('history-outcome').value;
    if (outcome) { params.set('outcome', outcome); }
    if (format === 'json') {
      params.set('limit', String(PAGE));
      if (state.cursor) { params.set('cursor', state.cursor); }
    }
    var text = params.toString();
    return ENDPOINT + '/' + encodeURIComponent(state.job) + '/history/' + format + (text ? '?' + text : '');
  }

  function renderHistory(page) {
    var body = $('history-table').querySelector('tbody');
    body.textContent = '';
    page.entries.forEach(function (e) {
      var row = document.createElement('tr');
      row.setAttribute('data-outcome', e.outcome);
      row.setAttribute('data-fire-time', e.fireTime);
      row.appendChild(cell(time(e.fireTime), 'mono'));
      row.appendChild(cell(words(e.outcome)));
      row.appendChild(cell(String(e.attempt)));
      row.appendChild(cell(e.node || '–', 'mono'));
      row.appendChild(cell(time(e.start), 'mono'));
      row.appendChild(cell(time(e.end), 'mono'));
      row.appendChild(cell(e.durationMs === null ? '–' : e.durationMs + ' ms', 'mono'));
      row.appendChild(cell(e.fencingToken === null ? '–' : String(e.fencingToken), 'mono'));
      row.appendChild(cell(e.failureClass ? e.failureClass + ': ' + (e.failureMessage || '') : ''));
      body.appendChild(row);
    });
    if (!page.entries.length) {
      var empty = document.createElement('tr');
      var td = cell('no entries', 'sub');
      td.colSpan = 9;
      empty.appendChild(td);
      body.appendChild(empty);
    }
    state.next = page.next;
    $('history-older').disabled = !page.next;
    $('history-newer').disabled = state.back.length === 0;
    $('history-page').textContent = 'page ' + (state.back.length + 1);
    $('history-csv').href = query('csv');
    $('history-ndjson').href = query('ndjson');
  }

  function loadHistory() {
    if (!state.job) { return; }
    var path = query('json');
    fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' }, cache: 'no-store' })
      .then(function (r) {
        if (!r.ok) { throw new Error('GET ' + path + ' answered HTTP ' + r.status); }
        return r.json();
      })
      .then(function (page) { $('history-error').hidden = true; renderHistory(page); })
      .catch(function (e) { $('history-error').textContent = e.message; $('history-error').hidden = false; });
  }

  function restart() {
    state.cursor = null;
    state.back = [];
    loadHistory();
  }

  function initHistory() {
    var outcomes = $('history-outcome');
    Object.keys(WORDS).forEach(function (o) {
      var option = document.createElement('option');
      option.value = o;
      option.textContent = WORDS[o];
      outcomes.appendChild(option);
    });
    $('history-job').addEventListener('change', function () { state.job = this.value; restart(); });
    outcomes.addEventListener('change', restart);
    $('history-newest').addEventListener('click', restart);
    $('history-older').addEventListener('click', function () {
      if (!state.next) { return; }
      state.back.push(state.cursor);
      state.cursor = state.next;
      loadHistory();
    });
    $('history-newer').addEventListener('click', function () {
      if (!state.back.length) { return; }
      state.cursor = state.back.pop();
      loadHistory();
    });
    fetch(ENDPOINT, { credentials: 'same-origin', headers: { Accept: 'application/json' }, cache: 'no-store' })
      .then(function (r) { return r.ok ? r.json() : { jobs: [] }; })
      .then(function (report) {
        var select = $('history-job');
        report.jobs.forEach(function (job) {
          var option = document.createElement('option');
          option.value = job.name;
          option.textContent = job.name;
          select.appendChild(option);
        });
        // ?history=<job> opens that job's history, also a job of the namespace that this node does not guard
        var wanted = new URLSearchParams(window.location.search).get('history');
        if (wanted && !report.jobs.some(function (j) { return j.name === wanted; })) {
          var other = document.createElement('option');
          other.value = wanted;
          other.textContent = wanted;
          select.appendChild(other);
        }
        if (wanted) { select.value = wanted; }
        state.job = select.value || null;
        restart();
      });
  }

  initHistory();
})();
