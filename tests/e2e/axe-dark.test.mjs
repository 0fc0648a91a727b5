// axe-core on every page of the built site in the dark colour scheme, after load and after
// training (axe-suite.mjs says what is checked). Run: node --test tests/e2e/axe-dark.test.mjs
import { axeSuite } from './axe-suite.mjs';

axeSuite('dark');
