// Run by trace_chromium_check.py in Chromium's bundled Performance panel
// (devtools://devtools/bundled/trace_app.html) on a trace file's text:
// returns, as JSON, what the panel's trace model parsed (threads, slices,
// names, bounds, the threads it makes a track of) and what the panel's flame
// chart draws of the same events.
async function (text) {
  const fresh = () => { const d = JSON.parse(text); return Array.isArray(d) ? d : d.traceEvents; };
  const until = async (what, test) => {  // the app starts asynchronously after its load event
    for (let end = Date.now() + 60000; Date.now() < end; await new Promise(r => setTimeout(r, 50))) {
      try { const v = await test(); if (v) return v; } catch (e) { /* not ready yet */ }
    }
    throw new Error('timed out waiting for ' + what);
  };
  const out = {};
  try { fresh(); } catch (e) { return JSON.stringify({error: 'the page cannot parse the file: ' + e.message}); }
  const T = await import('./models/trace/trace.js');
  const model = T.TraceModel.Model.createWithAllHandlers();
  await model.parse(fresh(), {metadata: {}, isFreshRecording: false});
  const parsed = model.parsedTrace(0);
  const data = parsed.data || parsed;
  out.processNames = Object.fromEntries([...data.Meta.processNames].map(([pid, e]) => [pid, e.args.name]));
  out.bounds = {min: data.Meta.traceBounds.min, max: data.Meta.traceBounds.max};
  out.model = [];
  for (const [pid, proc] of data.Renderer.processes)
    for (const [tid, thread] of proc.threads)
      out.model.push({pid, tid, name: thread.name,
                      slices: thread.entries.map(e => ({name: e.name, ph: e.ph, ts: e.ts, dur: e.dur, args: e.args}))});
  out.tracks = T.Handlers.Threads.threadsInTrace(data).map(t => ({pid: t.pid, tid: t.tid, type: t.type, name: t.name}));

  out.panel = {};
  try {
    const UI = await import('./ui/legacy/legacy.js');
    const Timeline = await import('./panels/timeline/timeline.js');
    await until('the DevTools window', () => UI.InspectorView.InspectorView.maybeGetInspectorViewInstance());
    await UI.ViewManager.ViewManager.instance().showView('timeline');
    const panel = Timeline.TimelinePanel.TimelinePanel.instance();
    await panel.loadFromEvents(fresh());
    const dp = panel.getFlameChart().mainDataProvider;
    const td = await until('the flame chart', () => {
      const d = dp.timelineData();
      return d && d.groups.length && d.entryStartTimes.length ? d : null;
    });
    out.panel.groups = td.groups.map(g => ({name: g.name, startLevel: g.startLevel}));
    out.panel.entries = [];
    for (let i = 0; i < td.entryStartTimes.length; i++) {
      const e = dp.eventByIndex(i);
      if (!e || e.pid === undefined) continue;
      out.panel.entries.push({pid: e.pid, tid: e.tid, title: dp.entryTitle(i), start: td.entryStartTimes[i],
                              width: td.entryTotalTimes[i], level: td.entryLevels[i]});
    }
  } catch (e) {
    out.panel.error = String(e);
  }
  return JSON.stringify(out);
}
