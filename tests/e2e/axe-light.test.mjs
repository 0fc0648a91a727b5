// axe-core on every page of the built site in the light colour scheme, after load and after
// training (axe-suite.mjs says what is checked). Run: node --test tests/e2e/axe-light.test.mjs
import { axeSuite } from './axe-suite.mjs';

axeSuite('light');
