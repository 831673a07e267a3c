// The CPU one executed document costs the requests service: its render (cover, an HTML
// contract of about two pages, the audit page of two signers) and its PAdES seal (no TSA),
// in this process, one document at a time. Each round renders and seals a new Request's
// document, with its own names and dates, as the issuer does. docs/benchmarks.md, session
// 57 (ADRs 2940, 2950). It runs with the V8 and malloc settings every service applies at
// start (`runMain`: ADRs 2600, 2750, 2860), and `npm run bench:document` adds the image's
// `--max-semi-space-size=8` and `MALLOC_ARENA_MAX=2`, so its memory figures are the requests
// service's. Run directly, add them yourself.
//   npm run bench:document [-- documents=40 rounds=5]   (builds first when needed)
//   node bench/executed-document.bench.mjs [documents] [rounds]   (after a build)
import { createHash } from 'node:crypto';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readFileSync } from 'node:fs';
import { createLogger, makeSealCertificate, runMain } from '../libs/platform/dist/src/index.js';
import { pdfLibRenderer } from '../services/requests/dist/src/adapters/pdf/pdf-lib-renderer.js';
import { padesSealer } from '../services/requests/dist/src/adapters/pdf/pades-sealer.js';
import { identityFromPem } from '../services/requests/dist/src/adapters/pdf/signing-identity.js';

const [count = 40, rounds = 5] = process.argv.slice(2).map(Number);

// What a service applies before it serves; its timers are unref'd.
await new Promise((started) =>
  runMain(createLogger('bench', 'warn', { stderr: true }), async () => started()),
);

const ca = makeSealCertificate({ commonName: 'bench CA', ca: true });
const seal = makeSealCertificate({ commonName: 'bench seal', issuer: ca });
const sealer = padesSealer(identityFromPem(`${seal.certPem}${ca.certPem}`, seal.keyPem));

const CLAUSE =
  'The Supplier shall deliver the Services described in Schedule 1 with reasonable skill and care, ' +
  'in accordance with good industry practice, and shall notify the Customer in writing of any delay ' +
  'within five (5) business days of becoming aware of it. Invoices are payable within thirty days.';
const html = Array.from(
  { length: 14 },
  (_, i) =>
    `<h2>${i + 1}. Clause ${i + 1}</h2><p>${CLAUSE}</p><p><b>Note ${i + 1}:</b> <i>${CLAUSE.slice(0, 120)}</i></p>`,
).join('');
const fields = [
  { name: 'company', type: 'text', maxLength: 200 },
  { name: 'agree', type: 'checkbox' },
  { name: 'supplier_signature', type: 'signature' },
  { name: 'customer_signature', type: 'signature' },
];

const documentOf = (n) => {
  const at = new Date(Date.UTC(2026, 10, 1, 9, 0, n % 60)).toISOString();
  const signer = (id, name, email, values) => ({
    signerRef: `ref-${id}-${n}`,
    signerId: `${id}-${n}`,
    contact: { email, mobileNumber: null },
    kind: 'signed',
    at,
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/150.0',
    documentSha256: 'a'.repeat(64),
    typedName: name,
    drawnSignature: null,
    values,
    reason: null,
    authentication: null,
  });
  const acts = [
    signer('supplier', `Alex Supplier ${n}`, `alex${n}@supplier.example`, { company: `Supplier ${n} Ltd` }),
    signer('customer', `Casey Customer ${n}`, `casey${n}@customer.example`, { agree: true }),
  ];
  const contractHtml = html.replaceAll('Supplier', `Supplier ${n}`);
  return {
    requestId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    siteName: 'Bench Site',
    contracts: [
      {
        kind: 'html',
        id: 1,
        name: 'Services Agreement',
        html: contractHtml,
        sha256: createHash('sha256').update(contractHtml).digest('hex'),
        fields: fields.map((definition) => {
          const act = acts.find((a) => definition.name.startsWith(a.signerId.split('-')[0]));
          return {
            name: definition.name,
            definition,
            value:
              definition.name === 'company'
                ? acts[0].values.company
                : definition.name === 'agree'
                  ? true
                  : null,
            signerId: act?.signerId ?? acts[0].signerId,
            signature: definition.type === 'signature' ? (act ?? null) : null,
          };
        }),
      },
    ],
    signers: acts.map((act) => ({
      signerId: act.signerId,
      email: act.contact.email,
      mobileNumber: null,
      act,
      viewedAt: at,
    })),
    documentSha256: 'a'.repeat(64),
    createdAt: at,
    sentAt: at,
    completedAt: at,
  };
};

const cpuMs = (from) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const unwrap = async (task) => {
  const result = await task();
  if (result._tag === 'Left') throw new Error(JSON.stringify(result.left));
  return result.right;
};

let next = 0;
const one = async () => {
  const n = next++;
  const renderFrom = process.cpuUsage();
  const pdf = await unwrap(pdfLibRenderer.executed(documentOf(n)));
  const render = cpuMs(renderFrom);
  const sealFrom = process.cpuUsage();
  const sealed = await unwrap(
    sealer.seal(pdf, { reason: `Executed document ${n}`, signingTime: new Date() }),
  );
  return { render, seal: cpuMs(sealFrom), bytes: sealed.pdf.byteLength };
};

const firstFrom = process.cpuUsage();
const first = await one();
print(
  `first document (fonts read and parsed): ${cpuMs(firstFrom).toFixed(0)} ms of CPU, ${(first.bytes / 1024).toFixed(0)} KiB`,
);
for (let i = 0; i < 10; i++) await one(); // warm-up: the JIT compiles

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const perRound = [];
for (let round = 0; round < rounds; round++) {
  const from = process.cpuUsage();
  const started = performance.now();
  let render = 0;
  let sealing = 0;
  for (let i = 0; i < count; i++) {
    const d = await one();
    render += d.render;
    sealing += d.seal;
  }
  const figures = {
    total: cpuMs(from) / count,
    render: render / count,
    seal: sealing / count,
    wall: (performance.now() - started) / count,
  };
  perRound.push(figures);
  print(
    `round ${round + 1}: ${count} documents, CPU per document ${figures.total.toFixed(1)} ms (render ${figures.render.toFixed(1)}, seal ${figures.seal.toFixed(1)}), wall ${figures.wall.toFixed(1)} ms`,
  );
}
// What stays on the heap once the garbage is collected: the fonts and what is kept of them.
setFlagsFromString('--expose-gc');
runInNewContext('gc')();
const { rss, heapUsed } = process.memoryUsage();
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
// The process's peak RSS (VmHWM), in kB; the V8 heap's limit, which a container's memory limit sets.
const peakKb = Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'latin1'))?.[1]);
const { heap_size_limit: heapLimit } = getHeapStatistics();
print(
  `executed document: CPU per document, median of ${rounds} rounds, ${median(perRound.map((r) => r.total)).toFixed(1)} ms (render ${median(perRound.map((r) => r.render)).toFixed(1)}, seal ${median(perRound.map((r) => r.seal)).toFixed(1)}); heap after a full GC ${mb(heapUsed)}, RSS ${mb(rss)}, peak RSS ${mb(peakKb * 1024)}, heap limit ${mb(heapLimit)}; Node ${process.version}`,
);

function print(line) {
  process.stdout.write(`${line}\n`);
}
