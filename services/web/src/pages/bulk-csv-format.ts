import { LIMITS, MAX_BULK_ROWS } from '@esign/contracts';
import { html } from '../html.js';

/** The CSV format a bulk send reads (`mapCsv`), told below its form. */
export const csvFormat = html`<details class="panel">
  <summary>The CSV format</summary>
  <ul>
    <li>
      The first row is a header naming each column; every other row makes one Request (at most
      ${MAX_BULK_ROWS}).
    </li>
    <li>
      <code>signer_id</code>: the signer. For several signers per row, <code>signer_id_1</code>,
      <code>signer_id_2</code>, … in signing order.
    </li>
    <li>
      <code>signer_email</code> (or <code>signer_email_1</code>, <code>signer_email_2</code>, …), optional:
      the signer's e-mail address, who is then sent the Execution URL by e-mail.
    </li>
    <li><code>render_data.&lt;token&gt;</code>: the value of <code>{{token}}</code> in the contracts.</li>
    <li>
      <code>field.&lt;name&gt;</code>: the row's value of the signer field <code>name</code> (its default
      value).
    </li>
    <li>
      <code>title</code>, optional: the Request's own title (one line, at most ${LIMITS.title} characters),
      listed and searched on the Requests page; signers never see it.
    </li>
    <li>
      An empty cell gives no value. UTF-8, comma-separated, with double quotes around values that hold commas.
    </li>
  </ul>
  <pre><code>signer_id,signer_email,render_data.client_name,field.plan,title
c-1,ann@example.com,Ann,basic,Ann's renewal
c-2,bob@example.com,Bob,premium,Bob's renewal</code></pre>
</details>`;
