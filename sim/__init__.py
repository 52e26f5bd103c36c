"""The synthetic table: the renderer that draws scenes as camera frames, camera effects and hands, the
synthetic camera, a perfect camera over scenes, and known tables for tests. Used by the demo, the tests
and the benchmarks; the reading path (vision/) never imports it."""
