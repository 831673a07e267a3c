// The bulk-send line of `npm run bench` (issue #22): rows per second from the 202 to the
// bulk send's completion, every row created and sent, through the gateway.
import type { EsignClient } from '@esign/client';
import type { Tenant } from '@esign/testing';

export interface BulkRun {
  readonly rows: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  readonly sent: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts one bulk send of `rows` rows (each a new signer, sent) and waits for it to complete. */
export const bulkSendRun = async (
  esign: EsignClient,
  tenant: Tenant,
  template: number,
  rows: number,
  timeoutMs = 600_000,
): Promise<BulkRun> => {
  const tag = Math.random().toString(36).slice(2, 8);
  const body = {
    contracts: [template],
    send: true,
    rows: Array.from({ length: rows }, (_, i) => {
      const email = `bulk-${tag}-${i}@bench.example`;
      return {
        signers: [{ signer_id: `client-${tag}-${i}`, signer: { email }, send_to: { email: true } }],
        fields: [{ name: 'full_name', assigned_to: email }],
        render_data: { client_name: `Client ${i}`, start_date: '2030-01-01' },
      };
    }),
  };
  const started = Date.now();
  const created = await esign.POST('/v1.1/sites/{site_id}/bulk_sends', {
    params: { path: { site_id: tenant.site.id } },
    body,
  });
  if (created.response.status !== 202 || created.data === undefined)
    throw new Error(`bulk send: ${created.response.status} ${JSON.stringify(created.error ?? null)}`);
  const id = created.data.id;
  for (;;) {
    const progress = await esign.GET('/v1.1/bulk_sends/{bulk_send_id}', {
      params: { path: { bulk_send_id: id } },
    });
    const view = progress.data;
    if (view?.state === 'completed') {
      const seconds = (Date.now() - started) / 1000;
      return { rows, seconds, rowsPerSecond: rows / seconds, sent: view.sent };
    }
    if (Date.now() - started > timeoutMs) throw new Error(`bulk send ${id} not completed in ${timeoutMs} ms`);
    await pause(100);
  }
};
