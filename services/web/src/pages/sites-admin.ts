import type { AccountSiteView, AccountView } from '@esign/contracts';
import type { ApiProblem } from '../api-client.js';
import type { Visitor, WebDeps } from '../context.js';
import { html, type Html } from '../html.js';
import { csrfField, fieldErrors, problemSummary, textField, time } from '../layout.js';
import { dataTable, postButton } from '../table.js';
import { localeOptions } from './locale-options.js';

// The account admin's part of the Sites page: each Site's settings and members, and a new Site.

const memberTable = (deps: WebDeps, visitor: Visitor, site: AccountSiteView) =>
  site.members.length === 0
    ? html`<p>No members.</p>`
    : dataTable({
        // Shown: it parts the Site's settings above from who is on it.
        caption: html`Members of ${site.name}`,
        columns: ['User', { label: 'Added', wide: true }, { label: 'Actions', hidden: true }],
        rows: site.members.map((m) => [
          m.email,
          time(m.added_at),
          postButton({
            action: `${deps.base}/sites/${site.id}/members/${m.user_id}/remove`,
            csrf: csrfField(visitor.csrf),
            label: 'Remove',
            ariaLabel: `Remove ${m.email} from ${site.name}`,
          }),
        ]),
      });

/** A form the API refused: adding a member to a Site, a new Site (ADR 3050), a Site's settings. */
export type Failure =
  | { readonly siteId: number; readonly email: string; readonly problem: ApiProblem }
  | { readonly newSite: string; readonly problem: ApiProblem }
  | { readonly accountName: string; readonly problem: ApiProblem }
  | {
      readonly settingsOf: number;
      readonly name: string;
      readonly locale: string;
      readonly problem: ApiProblem;
    };

/** Account admins rename the account (ADR 3080): the name its users' e-mails show. */
export const accountNameForm = (
  deps: WebDeps,
  visitor: Visitor,
  account: AccountView,
  failed: Failure | undefined,
) => {
  const refused = failed !== undefined && 'accountName' in failed ? failed : undefined;
  return html`<section class="panel" aria-labelledby="account-name">
    <h3 id="account-name">Account</h3>
    ${problemSummary(refused?.problem, { name: 'account-name-field' })}
    <form method="post" action="${deps.base}/sites/account" novalidate>
      ${csrfField(visitor.csrf)}
      ${textField({
        id: 'account-name-field',
        name: 'name',
        label: 'Name of the account',
        hint: 'Shown in the e-mails its users get, such as invitations.',
        value: refused?.accountName ?? account.name,
        required: true,
        error: fieldErrors(refused?.problem).get('name'),
      })}
      <button type="submit" class="secondary">Rename the account</button>
    </form>
  </section>`;
};

/** Account admins make a Site (ADR 3050): a separate environment or a team, with them on it. */
export const newSiteForm = (deps: WebDeps, visitor: Visitor, failed: Failure | undefined) => {
  const refused = failed !== undefined && 'newSite' in failed ? failed : undefined;
  return html`<section class="panel" aria-labelledby="new-site">
    <h3 id="new-site">New Site</h3>
    <p class="hint">
      A separate environment (development beside production) or a team. You are its first member; its name is
      unique in the account.
    </p>
    ${problemSummary(refused?.problem, { name: 'new-site-name' })}
    <form method="post" action="${deps.base}/sites/new" novalidate>
      ${csrfField(visitor.csrf)}
      ${textField({
        id: 'new-site-name',
        name: 'name',
        label: 'Name of the new Site',
        value: refused?.newSite ?? '',
        required: true,
        error: fieldErrors(refused?.problem).get('name'),
      })}
      <button type="submit" class="secondary">Create Site</button>
    </form>
  </section>`;
};

/**
 * The language a Site's signers read when their entry names none (ADR 2320): one we write
 * in, or none (each signer's own, else English). A tag set through the API that is not in
 * the list (`pt-BR`) stays offered, so saving the name does not change it.
 */
const localeSelect = (site: AccountSiteView, chosen: string, error: string | undefined): Html => {
  const id = `locale-${site.id}`;
  return html`<div class="field">
    <label for="${id}">Signers’ language when their entry names none</label>
    ${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}
    <select
      id="${id}"
      name="default_locale"
      ${error ? html` aria-describedby="${id}-error" aria-invalid="true"` : ''}
    >
      <option value="" ${chosen === '' ? html` selected` : ''}>None: each signer’s own, else English</option>
      ${localeOptions(chosen)}
    </select>
  </div>`;
};

/** A Site's name (ADR 3070) and its signers' default language (ADR 2320), saved together. */
const settingsForm = (
  deps: WebDeps,
  visitor: Visitor,
  site: AccountSiteView,
  failed: Failure | undefined,
) => {
  const refused =
    failed !== undefined && 'settingsOf' in failed && failed.settingsOf === site.id ? failed : undefined;
  const errors = fieldErrors(refused?.problem);
  const nameId = `name-${site.id}`;
  return html`${problemSummary(refused?.problem, { name: nameId, default_locale: `locale-${site.id}` })}
    <form method="post" action="${deps.base}/sites/${site.id}/settings" novalidate>
      ${csrfField(visitor.csrf)}
      ${textField({
        id: nameId,
        name: 'name',
        label: `Name of ${site.name}`,
        value: refused?.name ?? site.name,
        required: true,
        error: errors.get('name'),
      })}
      ${localeSelect(site, refused?.locale ?? site.default_locale ?? '', errors.get('default_locale'))}
      <button type="submit" class="secondary">Save ${site.name}</button>
    </form>`;
};

/** One Site of the account: its settings, its members, and a form to add one. */
export const sitePanel = (
  deps: WebDeps,
  visitor: Visitor,
  site: AccountSiteView,
  failed: Failure | undefined,
) => {
  const member = failed !== undefined && 'siteId' in failed && failed.siteId === site.id ? failed : undefined;
  const problem = member?.problem;
  const id = `email-${site.id}`;
  return html`<section class="panel" aria-labelledby="site-${site.id}">
    <h3 id="site-${site.id}">${site.name} <span class="hint">(id ${site.id})</span></h3>
    ${settingsForm(deps, visitor, site, failed)} ${memberTable(deps, visitor, site)}
    ${problemSummary(problem, { email: id })}
    <form method="post" action="${deps.base}/sites/${site.id}/members" novalidate>
      ${csrfField(visitor.csrf)}
      ${textField({ id, name: 'email', label: `E-mail of the user to add to ${site.name}`, type: 'email', value: member?.email ?? '', error: fieldErrors(problem).get('email') })}
      <button type="submit" class="secondary">Add to ${site.name}</button>
    </form>
  </section>`;
};
