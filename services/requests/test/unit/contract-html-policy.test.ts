import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import { sanitizeHtmlPolicy } from '../../src/adapters/html/sanitize-html-policy.js';
import { htmlBlocks } from '../../src/adapters/pdf/html-blocks.js';

const admit = sanitizeHtmlPolicy.admit;
const refused = (html: string): readonly string[] => {
  const verdict = admit(html);
  assert.ok(E.isLeft(verdict), `refused: ${html}`);
  return verdict.left;
};
const pdfText = (html: string) =>
  htmlBlocks(html)
    .map((b) => b.runs.map((r) => r.text).join(''))
    .join('\n');

describe('HIGH 1: what the signer sees is exactly what is signed (HTML contract policy)', () => {
  // Each of these prints text in the PDF (or hides it from the page) that the other does not show.
  const hidden: [string, string][] = [
    ['<p>Terms.</p><img alt="Signer owes $10,000">', '<img>'],
    ['<p>Pick</p><select><option>Signer owes $10,000</option></select>', '<select>'],
    ['<p>x</p><option>Signer owes $10,000</option>', '<option>'],
    ['<button>Signer owes $10,000</button>', '<button>'],
    ['<svg><text>Signer owes $10,000</text></svg>', '<svg>'],
    ['<title>Signer owes $10,000</title><p>Terms</p>', '<title>'],
    ['<p>Pay <s>$10</s> $10,000</p>', '<s>'],
    ['<script>document.title="pwned"</script>', '<script>'],
    ['<style>p{display:none}</style><p>x</p>', '<style>'],
  ];
  for (const [html, tag] of hidden)
    it(`refuses ${tag}, naming it and where it is`, () => {
      const problems = refused(html);
      assert.match(problems[0]!, new RegExp(`^has ${tag} at offset \\d+, which a signer would not be shown`));
    });

  it('refuses attributes the page drops (event handlers, styles, tooltips, list styles)', () => {
    assert.match(refused('<p onclick="steal()">x</p>')[0]!, /attribute "onclick" on <p> at offset 0/);
    assert.match(refused('<p style="display:none">x</p>')[0]!, /attribute "style" on <p>/);
    assert.match(refused('<abbr title="Signer owes $10,000">T&C</abbr>')[0]!, /attribute "title" on <abbr>/);
    assert.match(
      refused('<ol type="a"><li>x</li></ol>')[0]!,
      /attribute "type" on <ol>.*may have only start/,
    );
    assert.match(refused('<p {{x}}>y</p>')[0]!, /attribute "\{\{x\}\}" on <p>/);
  });

  it('refuses links the page would not keep, and comments, and a whole document', () => {
    assert.match(refused('<a href="javascript:alert(1)">x</a>')[0]!, /a "javascript:" link on <a>/);
    assert.match(refused('<a href=" jav&#x09;ascript:alert(1)">x</a>')[0]!, /"javascript:" link/);
    assert.match(refused('<a href="//evil.example">x</a>')[0]!, /protocol-relative/);
    assert.match(refused('<p>a</p><!-- Signer owes $10,000 -->')[0]!, /an HTML comment at offset 8/);
    assert.match(refused('<!doctype html><p>a</p>')[0]!, /^has <!doctype…> at offset 0/);
  });

  it('names every problem, up to ten', () => {
    assert.equal(refused('<img><img><img>').length, 3);
    assert.equal(refused('<img>'.repeat(50)).length, 10);
  });

  it('admits formatting, lists, tables and links, in the one form the PDF reads', () => {
    const html =
      '<h1>Agreement</h1><p>Between <b>{{client_name}}</b> &amp; us&nbsp;now<br>from {{start_date}}.</p><ol start="3"><li>One<li>Two</ol><table><tr><th colspan="2">A</th></tr></table><a href="https://acme.example/terms">terms</a> <a href="{{link}}">yours</a>';
    const stored = admit(html);
    assert.ok(E.isRight(stored));
    // Unclosed items closed, void elements normalised: what is stored is the sanitizer's form.
    assert.ok(stored.right.includes('<ol start="3"><li>One</li><li>Two</li></ol>'), stored.right);
    assert.ok(stored.right.includes('<br />'));
    // The stored form is a fixed point: admitting it again changes nothing.
    assert.deepEqual(admit(stored.right), E.right(stored.right));
    assert.match(pdfText(stored.right), /Between \{\{client_name\}\} & us\snow/);
  });
});
