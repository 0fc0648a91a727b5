// The typed state table (web/src/state-table.ts) and its parser (web/src/state.ts): defaults,
// permalink round trips, rejections, hide switches, listeners.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { AppState, parseValue, formatValue, MAX_RAW_LENGTH, limits, propDef } = await loadWeb('state');
const { splitAddress } = await loadWeb('shell/address');
const { OLD_PREFIXES, PROPS, SECTION_IDS } = await loadWeb('state-table');
// the page's own seeded generator (mulberry32), so a failing case can be replayed
const { mulberry32 } = await loadWeb('random');

// characters that are special in URLs and HTML, Chinese, emoji, spaces inside
const TEXT_POOL = [...'abc XYZ 咖哥喜欢小冰 &=#+%<>"\'/?;:,.!😀é'];

function randomValue(def, r) {
  switch (def.kind) {
    case 'int':
      return def.min + Math.floor(r() * (def.max - def.min + 1));
    case 'number': {
      const v = r() < 0.5 ? def.min + r() * (def.max - def.min) : def.min * Math.pow(def.max / Math.max(def.min, 1e-12), r());
      return Math.min(def.max, Math.max(def.min, v));
    }
    case 'bool':
      return r() < 0.5;
    case 'enum':
      return def.values[Math.floor(r() * def.values.length)];
    case 'text': {
      const n = 1 + Math.floor(r() * Math.min(def.maxLength, 30));
      let s = Array.from({ length: n }, () => TEXT_POOL[Math.floor(r() * TEXT_POOL.length)]).join('');
      s = s.trim(); // the parser trims; a value with outer spaces is not a fixed point
      return s || 'x';
    }
    case 'numbers': {
      const n = Math.floor(r() * (def.maxLength + 1));
      return Array.from({ length: n }, () => Math.round((def.min + r() * (def.max - def.min)) * 1000) / 1000);
    }
  }
  throw new Error(`unhandled kind ${def.kind}`);
}

describe('state table', () => {
  test("names are unique snake_case starting with their section's slug, and every default is valid", () => {
    const names = PROPS.map((p) => p.name);
    assert.equal(new Set(names).size, names.length);
    for (const p of PROPS) {
      assert.match(p.name, /^[a-z][a-z0-9_]*$/, p.name);
      assert.ok(!p.name.endsWith('_hide'), `${p.name} would clash with the hide switches`);
      if (p.section !== 'global') {
        assert.ok(SECTION_IDS.includes(p.section), `${p.name}: unknown section ${p.section}`);
        assert.ok(p.name.startsWith(`${p.section}_`), `${p.name} lacks the prefix ${p.section}_`);
      }
      // the default's string form parses back to itself
      const text = formatValue(p, p.default);
      const parsed = parseValue(p, text);
      assert.equal(formatValue(p, parsed), text, p.name);
      assert.deepEqual(parsed, p.default, p.name);
      if (p.kind === 'int' || p.kind === 'number') assert.ok(p.min <= p.default && p.default <= p.max, p.name);
      if (p.kind === 'enum') assert.ok(p.values.includes(p.default), p.name);
      assert.ok(p.doc.length > 5, `${p.name} needs a doc line`);
    }
  });

  test('an empty hash gives the defaults, and its hash holds only the seed', () => {
    const { state, rejected, unknown } = AppState.fromHash('');
    assert.deepEqual(rejected, []);
    assert.deepEqual(unknown, []);
    for (const p of PROPS) assert.deepEqual(state.get(p.name), p.default, p.name);
    assert.equal(state.toHash(), '#seed=1');
    assert.deepEqual(AppState.fromHash('#').state.values(), state.values());
  });

  test('random valid states round-trip through the hash exactly (400 states)', () => {
    const r = mulberry32(20261202);
    for (let i = 0; i < 400; i++) {
      const values = {};
      for (const p of PROPS) if (r() < 0.6) values[p.name] = randomValue(p, r);
      const { state } = AppState.fromHash('');
      state.update(values);
      const hash = state.toHash();
      const back = AppState.fromHash(hash);
      assert.deepEqual(back.rejected, [], `case ${i}: ${hash}`);
      assert.deepEqual(back.unknown, [], `case ${i}: ${hash}`);
      assert.deepEqual(back.state.values(), state.values(), `case ${i}: ${hash}`);
      for (const [name, v] of Object.entries(values)) assert.deepEqual(back.state.get(name), v, `case ${i}: ${name}`);
      assert.equal(back.state.toHash(), hash);
      assert.ok(!/[\s<>"]/.test(hash), `hash must be percent-encoded: ${hash}`);
    }
  });

  test('attributes are read like the hash', () => {
    const attrs = [
      { name: 'dot_d', value: '7' },
      { name: 'translate_text', value: '咖哥 喜欢 小冰' },
      { name: 'class', value: 'x' },
    ];
    const { state, unknown } = AppState.fromAttributes({ attributes: attrs });
    assert.equal(state.get('dot_d'), 7);
    assert.equal(state.get('translate_text'), '咖哥 喜欢 小冰');
    assert.deepEqual(unknown, ['class']);
  });
});

describe('rejections', () => {
  const byKind = (kind) => PROPS.filter((p) => p.kind === kind);
  const huge = '9'.repeat(MAX_RAW_LENGTH + 1);

  function assertRejected(name, raw) {
    const { state, rejected } = AppState.fromEntries([[name, raw]]);
    assert.equal(rejected.length, 1, `${name}=${JSON.stringify(raw.slice(0, 40))} should be rejected`);
    assert.equal(rejected[0].name, name);
    assert.ok(rejected[0].reason.startsWith(`${name}: `), rejected[0].reason);
    assert.ok(!rejected[0].reason.includes(raw.slice(0, 20)) || raw.length < 3, 'the reason must not echo the value');
    const def = PROPS.find((p) => p.name === name);
    assert.deepEqual(state.get(name), def.default, `${name} keeps its default`);
  }

  test('whole numbers: NaN, Infinity, 1e309, fractions, hex, out of range, empty, huge', () => {
    for (const p of byKind('int')) {
      for (const raw of ['NaN', 'Infinity', '1e309', '1e3', '1.5', '0x10', '', ' ', 'abc', `${p.max + 1}`, `${p.min - 1}`, huge, '1 2']) {
        assertRejected(p.name, raw);
      }
    }
  });

  test('numbers: NaN, ±Infinity, ±1e309, out of range, junk', () => {
    for (const p of byKind('number')) {
      // below the minimum: a tenth of a positive one, or one under a minimum of 0
      const below = p.min > 0 ? p.min / 10 : p.min - 1;
      for (const raw of ['NaN', 'Infinity', '-Infinity', '1e309', '-1e309', '1e9999', `${p.max * 10}`, `${below}`, '1,5', '--1', '', huge]) {
        assertRejected(p.name, raw);
      }
    }
  });

  test('enums: only the listed values', () => {
    for (const p of byKind('enum')) {
      for (const raw of ['bogus', '<script>alert(1)</script>', p.values[0].toUpperCase() + 'x', '', huge]) assertRejected(p.name, raw);
    }
  });

  test('texts: control characters, too long, longer than the raw limit', () => {
    for (const p of byKind('text')) {
      for (const raw of ['a\u0000b', 'line\nbreak', 'tab\there', 'del\u007f', 'x'.repeat(p.maxLength + 1), huge]) {
        assertRejected(p.name, raw);
      }
      // markup is just text: kept verbatim, to be rendered with textContent
      const { state, rejected } = AppState.fromEntries([[p.name, '<script>alert(1)</script>']]);
      assert.deepEqual(rejected, []);
      assert.equal(state.get(p.name), '<script>alert(1)</script>');
    }
  });

  test('number lists: junk, empty items, non-finite, too many', () => {
    for (const p of byKind('numbers')) {
      for (const raw of ['a,b', '1,,2', '1,NaN', '1e309', `${p.max * 2}`, Array(p.maxLength + 1).fill('1').join(',')]) {
        assertRejected(p.name, raw);
      }
    }
  });

  test('bools: 1/0/true/false/empty only', () => {
    const p = { name: 'b', kind: 'bool', default: false };
    for (const [raw, v] of [['1', true], ['true', true], ['', true], ['0', false], ['false', false]]) assert.equal(parseValue(p, raw), v);
    assert.throws(() => parseValue(p, 'yes'), { name: 'RangeError', message: 'b: expected 1/0 or true/false' });
  });

  test('unknown keys are reported as text, cut to 64 characters, and change nothing', () => {
    const { state, unknown, rejected } = AppState.fromHash('#<img src=x onerror=alert(1)>&' + 'k'.repeat(500) + '=1');
    assert.deepEqual(unknown, ['<img src', 'k'.repeat(64)]);
    assert.deepEqual(rejected, []);
    assert.equal(state.toHash(), '#seed=1');
  });

  test('a percent-encoded hostile value is rejected by name, not echoed', () => {
    const { rejected } = AppState.fromHash('#seed=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E');
    assert.deepEqual(rejected.map((r) => r.name), ['seed']);
    assert.doesNotMatch(rejected[0].reason, /img|onerror/);
  });
});

describe('old prefixes (links and embeds made with s2s_, tf_, mh_)', () => {
  test('a hash with s2s_task=dates opens §3.3 on dates, and the hash written back says translate_task', () => {
    const { state, rejected, unknown } = AppState.fromHash('#view=translate&s2s_task=dates');
    assert.deepEqual([rejected, unknown], [[], []]);
    assert.equal(state.get('view'), 'translate');
    assert.equal(state.get('translate_task'), 'dates');
    const hash = new URLSearchParams(state.toHash().slice(1));
    assert.equal(hash.get('translate_task'), 'dates');
    assert.ok(![...hash.keys()].some((k) => /^(s2s|tf|mh)_/.test(k)), state.toHash());
  });

  test('a widget attribute s2s_task (and tf_, mh_ ones) reads as the slug name', () => {
    const attrs = [
      { name: 's2s_task', value: 'dates' },
      { name: 'tf_heads', value: '2' },
      { name: 'mh_d', value: '8' },
    ];
    const { state, rejected, unknown } = AppState.fromAttributes({ attributes: attrs });
    assert.deepEqual([rejected, unknown], [[], []]);
    assert.equal(state.get('translate_task'), 'dates');
    assert.equal(state.get('transformer_heads'), 2);
    assert.equal(state.get('multihead_d'), 8);
    assert.match(state.toHash(), /translate_task=dates.*multihead_d=8.*transformer_heads=2/);
  });

  test('every setting of the three sections has its old name, hide switches included', () => {
    for (const [old, slug] of OLD_PREFIXES) {
      for (const p of PROPS.filter((q) => q.section === slug)) {
        const rest = p.name.slice(slug.length + 1);
        const value = formatValue(p, p.kind === 'bool' ? !p.default : p.default);
        const { state, unknown } = AppState.fromHash(`#${old}${rest}=${encodeURIComponent(value)}&${old}${rest}_hide=1`);
        assert.deepEqual(unknown, [], `${old}${rest}`);
        assert.equal(formatValue(p, state.get(p.name)), value, `${old}${rest}`);
        assert.ok(state.isHidden(p.name), `${old}${rest}_hide`);
      }
    }
  });

  test("given both spellings, the slug's wins, whichever comes first", () => {
    for (const hash of ['#s2s_task=note&translate_task=dates', '#translate_task=dates&s2s_task=note']) {
      const { state, rejected, unknown } = AppState.fromHash(hash);
      assert.deepEqual([rejected, unknown], [[], []], hash);
      assert.equal(state.get('translate_task'), 'dates', hash);
    }
    // an invalid old value beside a valid new one is not even read
    assert.deepEqual(AppState.fromHash('#tf_heads=99&transformer_heads=2').rejected, []);
  });

  test('an invalid value under an old name is rejected by its slug name; an unknown old name is reported as given', () => {
    const { rejected, unknown } = AppState.fromHash('#mh_heads=99&s2s_bogus=1&s2s=1');
    assert.deepEqual(rejected.map((r) => r.name), ['multihead_heads']);
    assert.deepEqual(unknown, ['s2s_bogus', 's2s']);
  });
});

describe('hide switches', () => {
  test('<name>_hide and controls_hide, round-tripped; 0/false turn them off; unknown ones are unknown', () => {
    const { state, unknown } = AppState.fromHash('#dot_d_hide=1&translate_speed_hide&dot_n_hide=0&multihead_heads_hide=false&bogus_hide=1');
    assert.equal(state.isHidden('dot_d'), true);
    assert.equal(state.isHidden('translate_speed'), true);
    assert.equal(state.isHidden('dot_n'), false);
    assert.equal(state.isHidden('multihead_heads'), false);
    assert.equal(state.isHidden('controls'), false);
    assert.deepEqual(unknown, ['bogus_hide']);
    const back = AppState.fromHash(state.toHash()).state;
    assert.deepEqual(back.hidden(), ['dot_d', 'translate_speed']);

    const all = AppState.fromHash('#controls_hide=1').state;
    assert.equal(all.isHidden('controls'), true);
    assert.equal(all.isHidden('dot_d'), true, 'controls_hide hides every control');
  });
});

describe('set, update, subscribe, assign', () => {
  test('a valid set notifies once with the changed names; an unchanged value notifies nobody; update returns the changed names', () => {
    const { state } = AppState.fromHash('');
    const calls = [];
    state.subscribe((changed) => calls.push([...changed]));
    state.set('dot_d', 6);
    state.set('dot_d', 6);
    assert.deepEqual(state.update({ dot_n: 2, dot_m: 5 /* the default: unchanged */ }), ['dot_n']);
    assert.deepEqual(state.update({ dot_n: 2, dot_m: 5 }), []);
    assert.deepEqual(calls, [['dot_d'], ['dot_n']]);
  });

  test('an invalid value throws RangeError and leaves the whole update unapplied', () => {
    const { state } = AppState.fromHash('');
    const before = state.values();
    let notified = 0;
    state.subscribe(() => notified++);
    assert.throws(() => state.set('dot_d', 99), { name: 'RangeError', message: 'dot_d: outside 1 … 8' });
    assert.throws(() => state.set('translate_lr', Number.NaN), { name: 'RangeError', message: 'translate_lr: not a number' });
    assert.throws(() => state.set('translate_lr', Infinity), { name: 'RangeError', message: 'translate_lr: not a number' });
    assert.throws(() => state.update({ dot_n: 2, dot_d: 1e309 }), { name: 'RangeError', message: 'dot_d: not a whole number' });
    assert.throws(() => state.update({ nonsense: 1 }), /unknown setting nonsense/);
    assert.throws(() => state.set('translate_text', 'a\nb'), /control characters/);
    assert.deepEqual(state.values(), before);
    assert.equal(notified, 0);
  });

  test('assign copies values and hide switches and notifies only what changed', () => {
    const { state } = AppState.fromHash('#dot_d=5');
    const other = AppState.fromHash('#dot_d=5&dot_n=2&self_d_hide=1').state;
    const calls = [];
    state.subscribe((c) => calls.push([...c]));
    state.assign(other);
    assert.deepEqual(calls, [['dot_n']]);
    assert.equal(state.isHidden('self_d'), true);
    assert.equal(state.toHash(), other.toHash());
  });

  test('a listener unsubscribed by an earlier listener is not called', () => {
    const { state } = AppState.fromHash('');
    const seen = [];
    let unsubscribeSecond = () => {};
    state.subscribe(() => {
      seen.push('first');
      unsubscribeSecond();
    });
    unsubscribeSecond = state.subscribe(() => seen.push('second'));
    state.set('seed', 5);
    assert.deepEqual(seen, ['first']);
  });
});

describe('the typed accessors of the table', () => {
  test("propDef(name) is the table's own entry; limits(name) its range, whole for an int", () => {
    for (const def of PROPS) {
      assert.equal(propDef(def.name), def);
      if (def.kind !== 'int' && def.kind !== 'number' && def.kind !== 'numbers') continue;
      assert.deepEqual(limits(def.name), { min: def.min, max: def.max, integer: def.kind === 'int' }, def.name);
    }
    assert.deepEqual(limits('gpt_steps'), { min: 10, max: 5000, integer: true });
    assert.equal(limits('translate_lr').integer, false);
  });
});

describe('an address: a place and settings', () => {
  test('a word that is no setting is the place; the rest are the settings, in any order', () => {
    assert.deepEqual(splitAddress('#section-gpt'), { place: 'section-gpt', settings: '' });
    assert.deepEqual(splitAddress('#section-gpt&lang=zh'), { place: 'section-gpt', settings: 'lang=zh' });
    assert.deepEqual(splitAddress('#lang=zh&seed=3&section-gpt-title'), { place: 'section-gpt-title', settings: 'lang=zh&seed=3' });
    assert.deepEqual(splitAddress('#view=dot&seed=2'), { place: null, settings: 'view=dot&seed=2' });
    assert.deepEqual(splitAddress(''), { place: null, settings: '' });
  });
  test('a bare setting name or hide flag stays a setting; a second word is left to be reported', () => {
    assert.deepEqual(splitAddress('#view=dot&controls_hide'), { place: null, settings: 'view=dot&controls_hide' });
    assert.deepEqual(splitAddress('#seed'), { place: null, settings: 'seed' });
    assert.deepEqual(splitAddress('#a&b'), { place: 'a', settings: 'b' });
    // text that is no identifier is never a place
    assert.deepEqual(splitAddress('#<img src=x>'), { place: null, settings: '<img src=x>' });
  });
});
