// The contract template endpoints of the gateway's authorization matrix: created, read,
// published, a draft replaced or deleted (ADR 3240), a published one archived or
// unarchived (ADR 3250) or deleted (ADR 3430), any one copied (ADR 3260), also into
// another Site (ADR 3320), a PDF one's file downloaded (ADR 3270).
import assert from 'node:assert/strict';
import { PDFDocument } from '@cantoo/pdf-lib';
import { expectStatus } from './client.js';
import { unique, type ClientOf } from './flow.js';
import type { Endpoint } from './matrix-kinds.js';

/** A one-page PDF without form fields, in base64, as a PDF template's body takes it. */
const blankPdf = async (): Promise<string> => {
  const document = await PDFDocument.create();
  document.addPage();
  return Buffer.from(await document.save()).toString('base64');
};

/**
 * The template calls for `acme` (the own site, with its published `template`), each on a
 * fresh template when it changes one; `otherSite` is one `acme` does not reach.
 */
export const contractEndpoints = (acme: ClientOf, template: number, otherSite: number): Endpoint[] => {
  const newTemplate = async (name: string): Promise<number> =>
    expectStatus(
      await acme.api.post<{ id: number }>(`/v1.1/sites/${acme.site}/contracts`, {
        type: 'html',
        name: `${name} ${unique()}`,
        html: '<p>{{x}}</p>',
        fields: [],
      }),
      201,
    ).body.id;
  const draftTemplate = () => newTemplate('Draft');
  const publishedTemplate = async (): Promise<number> => {
    const id = await newTemplate('Agreement');
    expectStatus(await acme.api.post(`/v1.1/contracts/${id}/publish`), 200, 'publish');
    return id;
  };
  /** Archiving or unarchiving a fresh published template: one archived first for `unarchive`. */
  const archiving = (action: 'archive' | 'unarchive'): Endpoint => ({
    name: `POST /v1.1/contracts/:id/${action}`,
    method: 'POST',
    prepare: async () => {
      const id = await publishedTemplate();
      if (action === 'unarchive') expectStatus(await acme.api.post(`/v1.1/contracts/${id}/archive`), 200);
      const before = expectStatus(
        await acme.api.get<{ archived_at: string | null }>(`/v1.1/contracts/${id}`),
        200,
      ).body.archived_at;
      return {
        path: `/v1.1/contracts/${id}/${action}`,
        unchanged: async () => {
          const now = expectStatus(
            await acme.api.get<{ archived_at: string | null }>(`/v1.1/contracts/${id}`),
            200,
          );
          assert.equal(now.body.archived_at, before, `a refused ${action} changed nothing`);
        },
      };
    },
    expect: { own: 200 },
  });

  return [
    {
      name: 'GET /v1.1/sites/:id/contracts',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/sites/${acme.site}/contracts` }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/sites/:id/contracts',
      method: 'POST',
      prepare: () =>
        Promise.resolve({
          path: `/v1.1/sites/${acme.site}/contracts`,
          body: { type: 'html', name: `T ${unique()}`, html: '<p>{{a}}</p>', fields: [] },
        }),
      expect: { own: 201 },
    },
    {
      name: 'GET /v1.1/contracts/:id',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/contracts/${template}` }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/contracts/:id/publish',
      method: 'POST',
      prepare: async () => ({ path: `/v1.1/contracts/${await draftTemplate()}/publish` }),
      expect: { own: 200 },
    },
    {
      name: 'PUT /v1.1/contracts/:id',
      method: 'PUT',
      prepare: async () => {
        const path = `/v1.1/contracts/${await draftTemplate()}`;
        const name = expectStatus(await acme.api.get<{ name: string }>(path), 200).body.name;
        return {
          path,
          body: { type: 'html', name: `Replaced ${unique()}`, html: '<p>{{b}}</p>', fields: [] },
          unchanged: async () => {
            const now = expectStatus(await acme.api.get<{ name: string }>(path), 200).body;
            assert.equal(now.name, name, 'a refused call replaced nothing');
          },
        };
      },
      expect: { own: 200 },
    },
    {
      name: 'PATCH /v1.1/contracts/:id',
      method: 'PATCH',
      prepare: async () => {
        const path = `/v1.1/contracts/${await draftTemplate()}`;
        const name = expectStatus(await acme.api.get<{ name: string }>(path), 200).body.name;
        return {
          path,
          body: { name: `Renamed ${unique()}` },
          unchanged: async () => {
            const now = expectStatus(await acme.api.get<{ name: string }>(path), 200).body;
            assert.equal(now.name, name, 'a refused call renamed nothing');
          },
        };
      },
      expect: { own: 200 },
    },
    {
      name: 'DELETE /v1.1/contracts/:id',
      method: 'DELETE',
      prepare: async () => {
        const path = `/v1.1/contracts/${await draftTemplate()}`;
        return {
          path,
          unchanged: async () => {
            expectStatus(await acme.api.get(path), 200, 'a refused call deleted nothing');
          },
        };
      },
      expect: { own: 204 },
    },
    {
      // A published one is deleted too (ADR 3430); refused, it is still read.
      name: 'DELETE /v1.1/contracts/:id (published)',
      method: 'DELETE',
      prepare: async () => {
        const path = `/v1.1/contracts/${await publishedTemplate()}`;
        return {
          path,
          unchanged: async () => {
            expectStatus(await acme.api.get(path), 200, 'a refused call deleted nothing');
          },
        };
      },
      expect: { own: 204 },
    },
    archiving('archive'),
    archiving('unarchive'),
    {
      name: 'GET /v1.1/contracts/:id/document',
      method: 'GET',
      prepare: async () => {
        const made = await acme.api.post<{ id: number }>(`/v1.1/sites/${acme.site}/contracts`, {
          type: 'pdf',
          name: `Lease ${unique()}`,
          pdf: await blankPdf(),
        });
        return { path: `/v1.1/contracts/${expectStatus(made, 201).body.id}/document` };
      },
      expect: { own: 200 },
    },
    {
      // A template's history (ADR 3720).
      name: 'GET /v1.1/contracts/:id/events',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/contracts/${template}/events` }),
      expect: { own: 200 },
    },
    {
      // What signers entered in its fields, across its sent Requests (ADR 3780).
      name: 'GET /v1.1/contracts/:id/field_values',
      method: 'GET',
      prepare: () => Promise.resolve({ path: `/v1.1/contracts/${template}/field_values` }),
      expect: { own: 200 },
    },
    {
      name: 'POST /v1.1/contracts/:id/copy',
      method: 'POST',
      prepare: async () => {
        const total = async () =>
          expectStatus(await acme.api.get<{ total_count: number }>(`/v1.1/sites/${acme.site}/contracts`), 200)
            .body.total_count;
        const before = await total();
        return {
          path: `/v1.1/contracts/${template}/copy`,
          unchanged: async () => assert.equal(await total(), before, 'a refused copy made nothing'),
        };
      },
      expect: { own: 201 },
    },
    {
      // Into a Site the credential does not reach (ADR 3320): refused at site_id for the own
      // credential, and the other's does not reach the template.
      name: 'POST /v1.1/contracts/:id/copy {site_id}',
      method: 'POST',
      prepare: () =>
        Promise.resolve({ path: `/v1.1/contracts/${template}/copy`, body: { site_id: otherSite } }),
      expect: { own: 422 },
    },
  ];
};
