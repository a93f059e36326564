import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  growthColour,
  renderFlameGraphSvg,
  renderProfileHtml,
  renderProfileText,
  type ProfileReport,
} from '../../../src/report/index.js';

const HOSTILE = '<script>alert("x")</script>&\u001b[2J';
const baseline = [
  { stack: 'main;commit;write', count: 8 },
  { stack: `main;${HOSTILE}`, count: 2 },
];
const candidate = [
  { stack: 'main;commit;write', count: 2 },
  { stack: `main;${HOSTILE}`, count: 6 },
];

describe('renderFlameGraphSvg', () => {
  const svg = renderFlameGraphSvg({ title: `B <against> C`, baseline, candidate });

  test('escapes every frame name and the title: no markup of theirs, no control characters', () => {
    assert.doesNotMatch(svg, /<script/);
    assert.ok(svg.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;\\x1b[2J'));
    assert.ok(svg.includes('B &lt;against&gt; C'));
    assert.doesNotMatch(svg, /[\u0000-\u0008\u000b-\u001f]/);
  });

  test("widths follow the candidate's samples and colours the change in share: red grew, blue shrank", () => {
    const frame = (name: string): RegExpExecArray | null =>
      new RegExp(
        `<title>${name}: [^<]*</title><rect [^>]*width="([0-9.]+)"[^>]*fill="rgb\\((\\d+),(\\d+),(\\d+)\\)"`,
      ).exec(svg);
    const commit = frame('commit');
    const hostile = frame('&lt;script&gt;.*?');
    assert.ok(commit !== null && hostile !== null, svg);
    assert.equal(Number(commit[1]), 300); // 2 of 8 samples of 1200 px
    assert.equal(Number(hostile[1]), 900);
    assert.ok(Number(commit[4]) > Number(commit[2]), 'commit shrank from 80% to 25%: blue');
    assert.ok(Number(hostile[2]) > Number(hostile[4]), 'the other grew from 20% to 75%: red');
    assert.match(svg, /<title>commit: C 25\.0%, B 80\.0% \(-55\.0 points\)<\/title>/);
  });

  test('an empty candidate gives an SVG with no frames', () => {
    const empty = renderFlameGraphSvg({ title: 't', baseline, candidate: [] });
    assert.doesNotMatch(empty, /<g>/);
  });
});

describe('growthColour', () => {
  test('pale when nothing moved, saturated at the largest change', () => {
    assert.equal(growthColour(0, 0), 'rgb(250,235,235)');
    assert.equal(growthColour(0.5, 0.5), 'rgb(250,60,60)');
    assert.equal(growthColour(-0.5, 0.5), 'rgb(60,60,250)');
  });
});

describe('the profile table', () => {
  const report: ProfileReport = {
    title: 'Profile 1',
    baselineName: 'relaxed',
    candidateName: 'durable',
    baseline: { tool: 'perf', samples: 10, stacks: baseline },
    candidate: { tool: 'gdb', samples: 8, stacks: candidate },
    grown: [
      {
        frame: HOSTILE,
        baselineSelf: 0.2,
        candidateSelf: 0.75,
        baselineTotal: 0.2,
        candidateTotal: 0.75,
        totalGrowth: 0.55,
        selfGrowth: 0.55,
      },
    ],
  };

  test('text: the shares in percent and the growth in points, the name with its control characters escaped', () => {
    const text = renderProfileText(report);
    assert.match(text, /B relaxed: 10 samples \(perf\); C durable: 8 samples \(gdb\)/);
    assert.match(
      text,
      /<script>alert\("x"\)<\/script>&\\x1b\[2J\s+20\.0%\s+75\.0%\s+\+55\.0\s+20\.0%\s+75\.0%\s+\+55\.0/,
    );
    assert.doesNotMatch(text, /\u001b/);
  });

  test('html: the table and the SVG, every name escaped', () => {
    const html = renderProfileHtml(report, '<svg></svg>');
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /&lt;script&gt;alert\(&quot;x&quot;\)/);
    assert.match(html, /<svg><\/svg>/);
  });

  test('text: a profile where nothing grew says so', () => {
    assert.match(renderProfileText({ ...report, grown: [] }), /no function took a larger share/);
  });
});
