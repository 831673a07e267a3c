import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { translatorFor } from '@esign/contracts';
import { pageTranslator } from '../../src/adapters/http/signing/page-language.js';
import { isKnownProblem, problemText } from '../../src/adapters/http/signing/problem-messages.js';
import { sharedLocale } from '../../src/domain/languages.js';

describe('requests: the language of signer pages and of the audit page (issue 23)', () => {
  it('chooses the signer’s locale, else the Site default, else the browser’s, else English', () => {
    assert.equal(pageTranslator('de', { locale: 'es-MX' }, { siteLocale: 'fr' }).locale, 'es');
    assert.equal(pageTranslator('de', { locale: 'ja' }, { siteLocale: 'fr' }).locale, 'fr');
    assert.equal(pageTranslator('de;q=0.5, pt', { locale: null }, { siteLocale: null }).locale, 'pt');
    assert.equal(pageTranslator('', undefined, undefined).locale, 'en');
    assert.equal(pageTranslator('ar', undefined, undefined).locale, 'en');
  });

  it('writes the audit page in the signers’ shared language, else the Site default, else English', () => {
    assert.equal(sharedLocale({ signers: [{ locale: 'es' }, { locale: 'es-AR' }] }), 'es');
    assert.equal(sharedLocale({ siteLocale: 'pt', signers: [{}, { locale: 'pt-PT' }] }), 'pt');
    assert.equal(sharedLocale({ siteLocale: 'de', signers: [{ locale: 'es' }, { locale: 'fr' }] }), 'de');
    assert.equal(sharedLocale({ signers: [{ locale: 'es' }, { locale: null }] }), 'en');
  });

  it('translates every problem the signing form can report (each wording in domain/signing.ts)', () => {
    const source = readFileSync(new URL('../../src/domain/signing.ts', import.meta.url), 'utf8');
    const wordings = [
      ...source.matchAll(/(?:E\.left|problem)\(\s*(['`])((?:(?!\1).)*)\1\s*\)/g),
      ...source.matchAll(/message:\s*(['`])((?:(?!\1).)*)\1/g),
    ].map((m) => m[2]!.replace(/\$\{[^}]+\}/g, '200'));
    assert.ok(wordings.length >= 10, `found ${wordings.length}: ${wordings.join(' | ')}`);
    const unknown = wordings.filter((w) => !isKnownProblem(w));
    assert.deepEqual(unknown, [], 'problems the signing page would show untranslated');
    const es = translatorFor('es');
    for (const wording of wordings) assert.notEqual(problemText(es, wording), wording, wording);
    assert.equal(problemText(es, 'must be at most 40 characters'), 'debe tener como máximo 40 caracteres');
    assert.equal(problemText(translatorFor('en'), 'is required'), 'is required');
    assert.equal(problemText(es, 'a wording nobody knows'), 'a wording nobody knows');
  });
});
