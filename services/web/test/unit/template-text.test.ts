import assert from 'node:assert/strict';
import { html, trusted } from '../../src/html.js';
import {
  highlightTokens,
  parseFields,
  parseSample,
  previewDocument,
  sampleFor,
  tokensOf,
} from '../../src/template-text.js';

describe('web: markup escaped by construction', () => {
  it('escapes every interpolated value, in text and in attributes, unless it is markup already', () => {
    const name = `<script>alert("x")</script>'&\``;
    const page = html`<p title="${name}">${name}</p>
      ${html`<b>${1}</b>`}${[html`<i>a</i>`, '<u>']}${null}${false}`;
    assert.equal(
      page.value.replace(/>\s+</g, '><'),
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&#96;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&#96;</p><b>1</b><i>a</i>&lt;u&gt;',
    );
    assert.equal(html`${trusted('<br>')}`.value, '<br>');
  });
});

describe('web: template text (tokens, highlighting, preview)', () => {
  const text = '<p>Dear {{ client_name }}, fee {{fee}}; again {{client_name}} and {{ not valid }}</p>';

  it('lists the tokens the requests service reads, once each, in order', () => {
    assert.deepEqual(tokensOf(text), ['client_name', 'fee']);
    assert.deepEqual(tokensOf('no tokens {{}} {{1x}}'), []);
  });

  it('marks each token in the escaped source', () => {
    assert.equal(
      highlightTokens('<b>{{a}}</b>').value,
      '&lt;b&gt;<mark class="token">{{a}}</mark>&lt;/b&gt;',
    );
  });

  it('merges sample values escaped, and leaves tokens without a value visible', () => {
    assert.equal(
      previewDocument(text, { client_name: '<Ada & Co>' }),
      '<p>Dear &lt;Ada &amp; Co&gt;, fee {{fee}}; again &lt;Ada &amp; Co&gt; and {{ not valid }}</p>',
    );
  });

  it('reads sample render_data as a JSON object of strings, or says why not', () => {
    assert.deepEqual(parseSample(''), { data: {} });
    assert.deepEqual(parseSample('{"a": "1"}'), { data: { a: '1' } });
    assert.deepEqual(parseSample('[1]'), { error: 'must be a JSON object such as {"name": "Ada"}' });
    assert.deepEqual(parseSample('{"a": 1}'), { error: 'the value of "a" must be a string' });
    assert.deepEqual(parseSample('{'), { error: 'is not valid JSON' });
    assert.deepEqual(JSON.parse(sampleFor(['client_name'])), { client_name: 'Sample client name' });
  });

  it('reads signer fields one per line as "name: type", naming a bad line', () => {
    assert.deepEqual(parseFields('full name: text\n\nsignature: signature\r\nok: checkbox'), {
      fields: [
        { name: 'full name', type: 'text' },
        { name: 'signature', type: 'signature' },
        { name: 'ok', type: 'checkbox' },
      ],
    });
    assert.deepEqual(parseFields('a: text\nb: colour'), {
      error:
        'line 2 must be "name: type" with type text, checkbox, choice, date, signature, date_signed, initials, full_name or attachment',
    });
  });
});
