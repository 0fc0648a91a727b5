// axe-core on every other page of the built site, loaded in the light colour scheme and then switched
// to the other, after load and after training (axe-suite.mjs says what is checked).
// Run: node --test tests/e2e/axe-light-first.test.mjs
import { axeSuite } from './axe-suite.mjs';

axeSuite('light');
