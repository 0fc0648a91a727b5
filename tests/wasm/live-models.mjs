// The models a test file creates. Every model is a C++ object the JS wrapper owns and must
// .delete(); the file keeps the ones it makes here, and deleteAll() (in its after hook) frees
// what a failing test left, so none leaks into the next file.
export function liveModels(getLab) {
  const live = new Set();
  const own = (m) => (live.add(m), m);
  return {
    own,
    create: (config) => own(getLab().createSeq2Seq(config)),
    load: (bytes) => own(getLab().loadSeq2Seq(bytes)),
    free(m) {
      m.delete();
      live.delete(m);
    },
    deleteAll() {
      for (const m of live) m.delete();
      live.clear();
    },
  };
}
