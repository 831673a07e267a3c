import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import {
  CATALOGUES,
  catalogueProblems,
  CreateRequestBody,
  decode,
  directionOf,
  localeFromAcceptLanguage,
  LOCALE_MEMO_SIZE,
  MAX_LOCALE_TAG,
  placeholdersOf,
  resolveLocale,
  SUPPORTED_LOCALES,
  supportedLocaleOf,
  translatorFor,
} from '../../src/index.js';

describe('i18n: catalogues', () => {
  it('has a catalogue for every supported language, all with the same keys and placeholders', () => {
    assert.deepEqual(Object.keys(CATALOGUES).sort(), [...SUPPORTED_LOCALES].sort());
    assert.deepEqual(catalogueProblems(CATALOGUES, 'en'), []);
  });

  it('fails when a catalogue lacks a key another has', () => {
    const { 'page.sign': _dropped, ...es } = CATALOGUES.es;
    const extra = { ...CATALOGUES.fr, 'page.only_in_fr': 'Seulement ici' };
    assert.deepEqual(catalogueProblems({ en: CATALOGUES.en, es, fr: extra }, 'en'), [
      'en: lacks "page.only_in_fr"',
      'es: lacks "page.only_in_fr"',
      'es: lacks "page.sign"',
    ]);
  });

  it("fails when a message's ICU placeholders differ from the reference language's", () => {
    const problems = catalogueProblems(
      {
        en: { a: 'Hello {name}', b: '{count, plural, one {# day} other {# days}}', c: 'ok' },
        de: { a: 'Hallo {nom}', b: '{count} Tage', c: 'ok {' },
      },
      'en',
    );
    assert.equal(problems.length, 3);
    assert.match(problems[0]!, /^de: "a" has placeholders \{nom:argument\}, en has \{name:argument\}$/);
    assert.match(problems[1]!, /^de: "b" has placeholders \{count:argument\}, en has \{count:plural\}$/);
    assert.match(problems[2]!, /^de: "c" is not ICU MessageFormat/);
  });

  it('reads placeholders inside plural branches', () => {
    assert.deepEqual(
      [...placeholdersOf('{n, plural, one {# for {who}} other {# for {who} at {site}}}')].sort(),
      [
        ['n', 'plural'],
        ['site', 'argument'],
        ['who', 'argument'],
      ],
    );
  });

  it('formats in the language asked, plurals by its rules', () => {
    const es = translatorFor('es');
    assert.equal(es.t('page.from', { site: 'Acme' }), 'Acme le pide que revise y firme');
    assert.equal(es.t('email.documents', { count: 1 }), 'un documento');
    assert.equal(es.t('email.documents', { count: 3 }), '3 documentos');
    assert.equal(translatorFor('fr').t('page.sign'), 'Signer');
    assert.equal(translatorFor('en').dir, 'ltr');
  });

  it('keeps values as text, whatever they hold (no tags, no ICU in values)', () => {
    const out = translatorFor('en').t('page.from', { site: '<b>{x}</b> & co' });
    assert.equal(out, '<b>{x}</b> & co asks you to review and sign');
  });
});

describe('i18n: choosing the language', () => {
  it('maps a tag to the nearest supported language', () => {
    assert.equal(supportedLocaleOf('es'), 'es');
    assert.equal(supportedLocaleOf('es-MX'), 'es');
    assert.equal(supportedLocaleOf('pt-BR'), 'pt');
    assert.equal(supportedLocaleOf('DE-at'), 'de');
    assert.equal(supportedLocaleOf('zh-Hant-TW'), undefined);
    assert.equal(supportedLocaleOf('not a tag'), undefined);
    assert.equal(supportedLocaleOf(null), undefined);
  });

  it('asks ICU once per tag, and forgets once the bounded table is full', () => {
    const intl = Intl as { getCanonicalLocales: typeof Intl.getCanonicalLocales };
    const icu = intl.getCanonicalLocales;
    const asked: string[] = [];
    intl.getCanonicalLocales = (tags) => {
      asked.push(String(tags));
      return icu(tags);
    };
    try {
      assert.equal(supportedLocaleOf('es-419-x-memo'), 'es');
      assert.equal(supportedLocaleOf('es-419-x-memo'), 'es');
      assert.equal(supportedLocaleOf('xx-x-memo'), undefined);
      assert.equal(supportedLocaleOf('xx-x-memo'), undefined);
      assert.deepEqual(asked, ['es-419-x-memo', 'xx-x-memo']);
      // Distinct well-formed tags until the table starts afresh: the first tag is asked again.
      for (let i = 0; i < LOCALE_MEMO_SIZE; i++) supportedLocaleOf(`fr-x-t${i}`);
      asked.length = 0;
      assert.equal(supportedLocaleOf('es-419-x-memo'), 'es');
      assert.deepEqual(asked, ['es-419-x-memo']);
      // A tag too long to keep is answered, never stored.
      const long = `de-${'x'.repeat(MAX_LOCALE_TAG)}`;
      asked.length = 0;
      assert.equal(supportedLocaleOf(long), undefined);
      assert.equal(supportedLocaleOf(long), undefined);
      assert.equal(asked.length, 0, 'rejected by length before ICU');
      const padded = `${' '.repeat(MAX_LOCALE_TAG)}pt-BR`;
      assert.equal(supportedLocaleOf(padded), 'pt');
      assert.equal(supportedLocaleOf(padded), 'pt');
      assert.deepEqual(asked, ['pt-BR', 'pt-BR']);
    } finally {
      intl.getCanonicalLocales = icu;
    }
  });

  it('takes the first choice that maps, else English', () => {
    assert.equal(resolveLocale('ja', 'fr-CA', 'de'), 'fr');
    assert.equal(resolveLocale(null, undefined, 'pt'), 'pt');
    assert.equal(resolveLocale('ja', null), 'en');
  });

  it('negotiates Accept-Language by quality, then order', () => {
    assert.equal(localeFromAcceptLanguage('ja, de;q=0.5, fr;q=0.8'), 'fr');
    assert.equal(localeFromAcceptLanguage('es-ES,es;q=0.9,en;q=0.8'), 'es');
    assert.equal(localeFromAcceptLanguage('fr;q=0, de'), 'de');
    assert.equal(localeFromAcceptLanguage('*'), undefined);
    assert.equal(localeFromAcceptLanguage('ja, ko'), undefined);
    assert.equal(localeFromAcceptLanguage(undefined), undefined);
  });

  it('writes right-to-left scripts right to left', () => {
    assert.equal(directionOf('ar'), 'rtl');
    assert.equal(directionOf('he-IL'), 'rtl');
    assert.equal(directionOf('fa'), 'rtl');
    assert.equal(directionOf('az-Arab'), 'rtl');
    assert.equal(directionOf('az'), 'ltr');
    assert.equal(directionOf('es'), 'ltr');
  });
});

describe('i18n: a signer entry’s locale', () => {
  const body = (locale: unknown) => ({ contracts: [1], signers: [{ signer_id: 'a@b.co', locale }] });

  it('keeps a well-formed BCP 47 tag in canonical form, supported or not', () => {
    for (const [given, kept] of [
      ['es', 'es'],
      ['pt-br', 'pt-BR'],
      ['zh-hant-tw', 'zh-Hant-TW'],
    ] as const) {
      const result = decode(CreateRequestBody)(body(given));
      assert.ok(E.isRight(result), given);
      assert.equal(result.right.signers[0]!.locale, kept);
    }
  });

  it('refuses what is not a language tag, naming the field', () => {
    for (const bad of ['', 'english please', 'e', '12', 'x'.repeat(40), 7]) {
      const result = decode(CreateRequestBody)(body(bad));
      assert.ok(E.isLeft(result), String(bad));
      assert.equal(result.left[0]!.path, 'signers[0].locale');
    }
  });
});
