import assert from 'node:assert/strict';
import {
  checkDefaultValue,
  copyName,
  copyTemplate,
  declareFields,
  newHtmlTemplate,
  parseTokens,
  publishTemplate,
  replaceDraft,
  unusableForRequests,
  type ContractTemplate,
} from '../../src/domain/contract-template.js';
import { deleteTemplate, setArchived } from '../../src/domain/template-retirement.js';
import { later, left, NOW, right } from '../support/builders.js';

const document = { sizeBytes: 10, sha256: 'ab' };

describe('requests domain: contract templates', () => {
  it('reads the tokens of an HTML template in order of first use', () => {
    assert.deepEqual(right(parseTokens('<p>{{name}} and {{ start_date }}, {{name}} {{a.b-c}}</p>')), [
      'name',
      'start_date',
      'a.b-c',
    ]);
    assert.deepEqual(right(parseTokens('no placeholders { here }')), []);
  });

  it('refuses a malformed or unclosed placeholder, saying where', () => {
    assert.equal(
      left(parseTokens('Hi {{first name}}')),
      'has an invalid placeholder "{{first name}}" at offset 3: a token name is a letter or _ followed by up to 99 letters, digits, _, . or -',
    );
    assert.equal(left(parseTokens('Hi {{name')), 'has a "{{" at offset 3 that is never closed with "}}"');
    assert.match(left(parseTokens('{{}}')), /invalid placeholder/);
  });

  it('checks declared fields: unique names, options only and always on choices, max_length only on text', () => {
    assert.deepEqual(
      left(
        declareFields([
          { name: 'a', type: 'text', max_length: 5 },
          { name: 'a', type: 'checkbox' },
          { name: 'b', type: 'choice' },
          { name: 'c', type: 'checkbox', options: ['x'], max_length: 3 },
          { name: 'd', type: 'choice', options: ['x', 'y', 'x'] },
        ]),
      ),
      [
        { path: 'fields[1].name', message: 'duplicates fields[0].name "a"' },
        { path: 'fields[2].options', message: 'required for a choice field' },
        { path: 'fields[3].options', message: 'is only allowed on a choice field' },
        { path: 'fields[3].max_length', message: 'is only allowed on a text field' },
        { path: 'fields[4].options[2]', message: 'duplicates option "x"' },
      ],
    );
  });

  it('makes a draft HTML template, or names every problem', () => {
    const template = right(
      newHtmlTemplate({
        siteId: 1,
        name: 'NDA',
        html: '{{who}}',
        fields: [{ name: 's', type: 'signature' }],
        document,
        now: NOW,
      }),
    );
    assert.equal(template.state, 'draft');
    assert.deepEqual(template.tokens, ['who']);
    assert.deepEqual(template.fields, [{ name: 's', type: 'signature' }]);
    assert.deepEqual(
      left(
        newHtmlTemplate({
          siteId: 1,
          name: 'x',
          html: '{{ bad token }}',
          fields: [{ name: 'c', type: 'choice' }],
          document,
          now: NOW,
        }),
      ).map((e) => e.path),
      ['html', 'fields[0].options'],
    );
  });

  it('replaces a draft with a new one, keeping its site and creation time; a published one never (ADR 3240)', () => {
    const made = (name: string, at: string, siteId = 1) =>
      right(newHtmlTemplate({ siteId, name, html: '{{who}}', fields: [], document, now: at }));
    const current = { ...made('NDA', NOW), id: 7 };
    const next = made('NDA v2', later(NOW, 60), 9);
    const replaced = replaceDraft(current, next);
    assert.ok(replaced._tag === 'Replaced');
    assert.deepEqual(
      [
        replaced.template.name,
        replaced.template.siteId,
        replaced.template.createdAt,
        replaced.template.updatedAt,
      ],
      ['NDA v2', 1, NOW, later(NOW, 60)],
    );
    assert.deepEqual(replaceDraft({ ...current, state: 'published', publishedAt: NOW }, next), {
      _tag: 'Published',
    });
  });

  it('publishes once; publishing again changes nothing', () => {
    const draft = {
      ...right(newHtmlTemplate({ siteId: 1, name: 'x', html: 'x', fields: [], document, now: NOW })),
      id: 1,
    } as ContractTemplate;
    const first = publishTemplate(draft, later(NOW, 1));
    assert.equal(first.changed, true);
    assert.equal(first.template.state, 'published');
    assert.equal(first.template.publishedAt, later(NOW, 1));
    const again = publishTemplate(first.template, later(NOW, 2));
    assert.equal(again.changed, false);
    assert.equal(again.template.publishedAt, later(NOW, 1));
  });

  it('archives a published template and brings it back, each once; never a draft (ADR 3250)', () => {
    const draft = {
      ...right(newHtmlTemplate({ siteId: 1, name: 'x', html: 'x', fields: [], document, now: NOW })),
      id: 4,
    } as ContractTemplate;
    assert.deepEqual(setArchived(draft, true, NOW), { _tag: 'Draft' });
    assert.deepEqual(setArchived(draft, false, NOW), { _tag: 'Draft' });
    assert.equal(unusableForRequests(draft), 'contract template 4 is not published: publish it first');

    const published = publishTemplate(draft, later(NOW, 1)).template;
    assert.equal(unusableForRequests(published), undefined);
    assert.deepEqual(setArchived(published, false, later(NOW, 2)), {
      _tag: 'Set',
      template: published,
      changed: false,
    });
    const archived = setArchived(published, true, later(NOW, 2));
    assert.ok(archived._tag === 'Set' && archived.changed);
    assert.deepEqual(archived.template, {
      ...published,
      archivedAt: later(NOW, 2),
      updatedAt: later(NOW, 2),
    });
    assert.equal(
      unusableForRequests(archived.template),
      'contract template 4 is archived: unarchive it, or use another',
    );
    const again = setArchived(archived.template, true, later(NOW, 3));
    assert.ok(again._tag === 'Set' && !again.changed && again.template.archivedAt === later(NOW, 2));
    const back = setArchived(archived.template, false, later(NOW, 4));
    assert.ok(back._tag === 'Set' && back.changed);
    assert.deepEqual(back.template, { ...published, updatedAt: later(NOW, 4) });
  });

  it('forgets a draft and marks a published template deleted, which no new Request may use (ADR 3430)', () => {
    const draft: ContractTemplate = {
      ...right(newHtmlTemplate({ siteId: 3, name: 'NDA', html: '<p>x</p>', fields: [], document, now: NOW })),
      id: 4,
    };
    assert.deepEqual(deleteTemplate(draft, later(NOW, 1)), { _tag: 'Remove' });

    const published = publishTemplate(draft, later(NOW, 1)).template;
    const archived = { ...published, archivedAt: later(NOW, 2) };
    for (const template of [published, archived]) {
      const deleted = deleteTemplate(template, later(NOW, 3));
      assert.deepEqual(deleted, {
        _tag: 'Mark',
        template: { ...template, deletedAt: later(NOW, 3), updatedAt: later(NOW, 3) },
      });
      assert.ok(deleted._tag === 'Mark');
      // Deleted is said before archived: unarchiving would not bring it back.
      assert.equal(unusableForRequests(deleted.template), 'contract template 4 was deleted: use another');
    }
  });

  it('copies any template into a new draft of its Site, named after it unless named (ADR 3260)', () => {
    const source = {
      ...right(newHtmlTemplate({ siteId: 3, name: 'NDA', html: '{{who}}', fields: [], document, now: NOW })),
      id: 9,
      state: 'published' as const,
      publishedAt: NOW,
      archivedAt: later(NOW, 5),
    };
    const copy = copyTemplate(source, undefined, later(NOW, 60));
    const { id: _id, ...content } = source;
    assert.deepEqual(copy, {
      ...content,
      name: 'NDA (copy)',
      state: 'draft',
      createdAt: later(NOW, 60),
      updatedAt: later(NOW, 60),
      publishedAt: null,
      archivedAt: null,
      deletedAt: null,
    });
    assert.equal(copyTemplate(source, 'NDA 2031', NOW).name, 'NDA 2031');
    // Into another Site (ADR 3320): there, by default, the source's name as it is.
    assert.deepEqual(
      [copyTemplate(source, undefined, NOW, 8).siteId, copyTemplate(source, undefined, NOW, 8).name],
      [8, 'NDA'],
    );
    assert.equal(copyTemplate(source, undefined, NOW, source.siteId).name, 'NDA (copy)');

    assert.equal(copyName('x'.repeat(193)), `${'x'.repeat(193)} (copy)`);
    assert.equal(copyName('x'.repeat(200)), `${'x'.repeat(193)} (copy)`);
    // Never half of a character that takes two UTF-16 units, nor a space before the suffix.
    assert.equal(copyName(`${'x'.repeat(192)}😀rest`), `${'x'.repeat(192)} (copy)`);
    assert.equal(copyName(`${'x'.repeat(191)} 😀`), `${'x'.repeat(191)} (copy)`);
  });

  it('says whether a value fits a field', () => {
    assert.equal(
      checkDefaultValue({ name: 't', type: 'text', maxLength: null }, 'x'.repeat(10_000)),
      undefined,
    );
    assert.equal(checkDefaultValue({ name: 'c', type: 'checkbox' }, false), undefined);
    assert.equal(checkDefaultValue({ name: 'p', type: 'choice', options: ['a'] }, 'a'), undefined);
    assert.match(checkDefaultValue({ name: 'p', type: 'choice', options: [] }, 'a')!, /\(no options\)/);
    assert.match(checkDefaultValue({ name: 's', type: 'signature' }, 'x')!, /not pre-filled/);
  });
});
