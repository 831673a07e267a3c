import assert from 'node:assert/strict';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { CreateContractBody } from '@esign/contracts';
import { useCases } from '../../src/application/use-cases.js';
import type { Caller } from '../../src/application/caller.js';
import { body, fresh, left, right } from '../support/builders.js';
import { fakeDeps } from '../support/fakes.js';

const SITE = { id: 7, name: 'Acme' };
const OTHER = { id: 8, name: 'Other' };
const caller: Caller = { sub: 'u', sites: [SITE] };

const html: CreateContractBody = {
  type: 'html',
  name: 'NDA',
  html: 'Hello {{client}}',
  fields: [{ name: 'sig', type: 'signature' }],
};

const setup = async (options: Parameters<typeof fakeDeps>[0] = {}) => {
  const fake = fakeDeps(options);
  const cases = useCases(fake.deps);
  const created = fresh(right(await cases.createTemplate({ caller, siteId: SITE.id, body: html })()));
  right(await cases.publishContract({ caller, templateId: created.id })());
  return { ...fake, cases, templateId: created.id };
};

describe('requests use cases (in-memory ports)', () => {
  describe('templates', () => {
    it('creates a draft, publishes it, and keeps it to its site', async () => {
      const { cases, templateId } = await setup();
      const read = right(await cases.getContract({ caller, templateId })());
      assert.equal(read.state, 'published');
      assert.deepEqual(read.tokens, ['client']);
      assert.deepEqual(
        left(await cases.getContract({ caller: { sub: 'x', sites: [OTHER] }, templateId })()),
        {
          _tag: 'NotFound',
          resource: 'contract',
        },
      );
      assert.deepEqual(left(await cases.createTemplate({ caller, siteId: OTHER.id, body: html })()), {
        _tag: 'NotFound',
        resource: 'site',
      });
    });

    it("takes a PDF's fields from the reader, and its complaint as the pdf field's error", async () => {
      const { cases } = await setup({ pdfFields: [{ name: 'tenant', type: 'text', maxLength: null }] });
      const pdf = right(
        await cases.createTemplate({
          caller,
          siteId: SITE.id,
          body: { type: 'pdf', name: 'L', pdf: 'JVBERi0xLjcK' },
        })(),
      );
      assert.deepEqual(fresh(pdf).fields, [{ name: 'tenant', type: 'text' }]);
      const broken = await setup({ pdfFields: 'is not a readable PDF' });
      assert.deepEqual(
        left(
          await broken.cases.createTemplate({
            caller,
            siteId: SITE.id,
            body: { type: 'pdf', name: 'L', pdf: 'JVBERi0xLjcK' },
          })(),
        ),
        {
          _tag: 'InvalidTemplate',
          errors: [{ path: 'pdf', message: 'is not a readable PDF' }],
        },
      );
    });
  });

  describe('create a Request', () => {
    it('stores the draft and the upserted signers, and answers signed Execution URLs', async () => {
      const { cases, deps, memory, templateId } = await setup();
      const outcome = right(
        await cases.createRequest({
          caller,
          siteId: SITE.id,
          body: body({ contracts: [templateId], signers: [{ signer_id: 'a@b.co' }] }),
        })(),
      );
      assert.equal(outcome.replayed, false);
      const view = outcome.value;
      assert.equal(memory.state().requests.get(view.id)?.state, 'draft');
      assert.deepEqual(memory.state().signers.get(`${SITE.id}/a@b.co`), {
        email: 'a@b.co',
        mobileNumber: null,
      });
      const url = new URL(view.signers[0]!.request_url);
      assert.equal(url.origin + url.pathname, 'https://esign.example/sign');
      assert.ok(
        deps.urlSigner.verify(view.id, view.signers[0]!.signer_ref, url.searchParams.get('signature')!),
      );
      assert.deepEqual(right(await cases.getRequest({ caller, requestId: view.id })()), view);
    });

    it('writes nothing when a rule is broken', async () => {
      const { cases, memory, templateId } = await setup();
      const error = left(
        await cases.createRequest({
          caller,
          siteId: SITE.id,
          body: body({
            contracts: [templateId],
            signers: [{ signer_id: 'a@b.co' }],
            fields: [{ name: 'nope' }],
          }),
        })(),
      );
      assert.equal(error._tag, 'InvalidRequest');
      assert.equal(memory.state().requests.size, 0);
      assert.equal(memory.state().signers.size, 0);
    });

    it("refuses a site the caller does not reach, and hides other sites' Requests", async () => {
      const { cases, templateId } = await setup();
      const input = {
        caller,
        siteId: SITE.id,
        body: body({ contracts: [templateId], signers: [{ signer_id: 'x' }] }),
      };
      assert.deepEqual(left(await cases.createRequest({ ...input, siteId: OTHER.id })()), {
        _tag: 'NotFound',
        resource: 'site',
      });
      const view = fresh(right(await cases.createRequest(input)()));
      assert.deepEqual(
        left(await cases.getRequest({ caller: { sub: 'y', sites: [OTHER] }, requestId: view.id })()),
        {
          _tag: 'NotFound',
          resource: 'request',
        },
      );
      assert.deepEqual(
        left(
          await cases.listRequests({
            caller,
            siteId: OTHER.id,
            page: { page: 1, perPage: 10 },
            filter: {},
          })(),
        ),
        {
          _tag: 'NotFound',
          resource: 'site',
        },
      );
    });

    it('with an Idempotency-Key: runs once and replays, refuses another call, and is in flight meanwhile', async () => {
      const { cases, deps, memory, templateId } = await setup();
      const input = {
        caller,
        siteId: SITE.id,
        body: body({ contracts: [templateId], signers: [{ signer_id: 'x' }] }),
        idempotency: { key: 'k', fingerprint: 'f1' },
      };
      const first = right(await cases.createRequest(input)());
      const again = right(await cases.createRequest(input)());
      assert.deepEqual(again, { value: first.value, replayed: true });
      assert.equal(memory.state().requests.size, 1);
      assert.deepEqual(
        left(await cases.createRequest({ ...input, idempotency: { key: 'k', fingerprint: 'f2' } })()),
        {
          _tag: 'IdempotencyKeyReused',
        },
      );
      // A transaction that holds key "busy" while another call arrives with it.
      const inner = await deps.transact((store) =>
        TE.fromTask(async () => {
          await store.idempotency.claim({ siteId: SITE.id, key: 'busy' }, 'f')();
          return cases.createRequest({ ...input, idempotency: { key: 'busy', fingerprint: 'f' } })();
        }),
      )();
      assert.ok(E.isRight(inner));
      assert.deepEqual(inner.right, E.left({ _tag: 'IdempotencyKeyInFlight' }));
    });

    it('lists newest first with the page shape, and by signer', async () => {
      const { cases, setNow, templateId } = await setup();
      const ids: string[] = [];
      for (const at of ['2030-01-01T00:00:01.000Z', '2030-01-01T00:00:02.000Z', '2030-01-01T00:00:03.000Z']) {
        setNow(at);
        ids.push(
          fresh(
            right(
              await cases.createRequest({
                caller,
                siteId: SITE.id,
                body: body({ contracts: [templateId], signers: [{ signer_id: `x-${ids.length % 2}` }] }),
              })(),
            ),
          ).id,
        );
      }
      const named = right(
        await cases.listRequests({
          caller,
          siteId: SITE.id,
          page: { page: 1, perPage: 10 },
          filter: { signerId: 'x-0' },
        })(),
      );
      assert.deepEqual(
        named.data.map((r) => r.id),
        [ids[2], ids[0]],
        'only those naming the signer (ADR 3200)',
      );
      const list = right(
        await cases.listRequests({
          caller,
          siteId: SITE.id,
          page: { page: 1, perPage: 2 },
          filter: {},
        })(),
      );
      assert.deepEqual(
        { ...list, data: list.data.map((r) => r.id) },
        { page: 1, per_page: 2, count: 2, total_count: 3, has_more: true, data: [ids[2], ids[1]] },
      );
    });
  });
});
