import type { Translator } from '@esign/contracts';
import { safe } from './html.js';
import { layout } from './layout.js';
import type { PageBrand } from './page-brand.js';

/** A page that says one thing: a refusal, a thank-you, an error. */
export const messagePage = (input: {
  readonly nonce: string;
  readonly tr?: Translator | undefined;
  readonly title: string;
  readonly message: string;
  readonly detail?: string;
  readonly from?: string;
  readonly brand?: PageBrand | undefined;
}): string =>
  layout({
    nonce: input.nonce,
    ...(input.tr === undefined ? {} : { tr: input.tr }),
    brand: input.brand,
    title: input.title,
    header: safe`${input.from === undefined ? '' : safe`<p class="from">${input.from}</p>`}<h1>${input.title}</h1>`,
    main: safe`<p>${input.message}</p>${input.detail === undefined ? '' : safe`<p class="hint">${input.detail}</p>`}`,
  });
