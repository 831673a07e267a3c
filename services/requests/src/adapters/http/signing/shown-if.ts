import type { ShownIf, Translator } from '@esign/contracts';
import { kindOf, type TypedField } from '../../../domain/document.js';
import { onPage, type Answered } from '../../../domain/answers.js';
import { wanted } from '../../../domain/field-conditions.js';
import { safe, trusted, type Html } from './html.js';
import { labelOf } from './layout.js';

// A field asked for only while another of the signer's is ticked, or not (ADR 3760), or has
// an option chosen (ADR 3710), or one of several (ADR 3790), or is filled in, or left empty
// (ADR 3800), that field perhaps asked for on a condition of its own (ADR 3810). Without
// script every field is shown, each saying when it is asked for, and the service leaves one
// not asked for empty; with it, one not asked for is hidden and disabled. A condition on a
// field another signer has signed with is decided before the page is drawn (ADR 3840).

/** What the page knows of the signer's answers: their fields, and those others signed with (ADR 3840). */
export interface Fill {
  readonly mine: readonly TypedField[];
  readonly answered: readonly Answered[];
}

/** The words for a field set or not: a box ticked, a text or date field filled in (ADR 3800). */
const SET_WORDS = {
  true: { checkbox: 'page.ifTicked', other: 'page.ifFilled' },
  false: { checkbox: 'page.ifNotTicked', other: 'page.ifEmpty' },
} as const;

/** What one condition asks, as a clause of the page's sentence: "“Plan” is Pro or Team". */
const clause = (tr: Translator, condition: ShownIf & { readonly trigger: TypedField }): string => {
  const label = labelOf(condition.field);
  const value = wanted(condition);
  if (typeof value === 'boolean')
    return tr.t(SET_WORDS[`${value}`][kindOf(condition.trigger) === 'checkbox' ? 'checkbox' : 'other'], {
      label,
    });
  const options = [value].flat();
  return options.length === 1
    ? tr.t('page.ifChosen', { label, option: options[0]! })
    : tr.t('page.ifChosenAny', {
        label,
        options: new Intl.ListFormat(tr.locale, { type: 'disjunction' }).format(options),
      });
};

/**
 * One of the signer's fields, as `input` renders it, in a block that says when it is asked
 * for ("Asked only when “Married” is ticked or “Plan” is Pro.", ADR 3850) and names its
 * conditions' inputs (`f<index>`, and the option or options that show it, or whether the
 * box is ticked or the field filled in) for the page's script; alone when it is asked for
 * whatever they answer; nothing when it is never asked for (ADR 3840).
 */
export const askedWhen = (tr: Translator, field: TypedField, fill: Fill, input: Html): Html | '' => {
  const treated = onPage(fill.mine, fill.answered)(field);
  if (treated._tag === 'Never') return '';
  if (treated._tag === 'Always') return input;
  const { conditions } = treated;
  // Two contracts may ask for the field on the same condition: it is said once.
  const clauses = [...new Set(conditions.map((c) => clause(tr, c)))];
  const when = tr.t('page.askedOnlyIf', {
    conditions: new Intl.ListFormat(tr.locale, { type: 'disjunction' }).format(clauses),
  });
  const names = JSON.stringify(conditions.map((c) => [`f${c.trigger.index}`, wanted(c)]));
  return safe`<div class="shown-if" data-shown-if="${names}"><p class="hint">${when}</p>${input}</div>`;
};

/**
 * Hides and disables each conditional block while none of its conditions holds, as the
 * signer ticks, chooses and types; a disabled input is neither posted nor checked by the
 * browser. A box is set when ticked, a text or date field when not blank. A condition on a
 * field hidden itself does not hold (ADR 3810), so the page goes over the blocks again until
 * none changes: at most once more than there are blocks, should two contracts' conditions
 * lead back to each other.
 */
const SHOWN_SCRIPT = `(() => {
  const blocks = document.querySelectorAll('[data-shown-if]');
  if (blocks.length === 0) return;
  const form = blocks[0].closest('form');
  const holds = ([name, equals]) => {
    const input = form.elements.namedItem(name);
    if (!input) return true;
    if ((input.disabled ?? input[0]?.disabled) === true) return false;
    if (typeof equals === 'boolean')
      return (input.type === 'checkbox' ? input.checked : input.value.trim() !== '') === equals;
    return Array.isArray(equals) ? equals.includes(input.value) : input.value === equals;
  };
  const settle = (block) => {
    const shown = JSON.parse(block.dataset.shownIf).some(holds);
    if (block.hidden === !shown) return false;
    block.hidden = !shown;
    block.querySelectorAll('input, select, textarea').forEach((i) => { i.disabled = !shown; });
    return true;
  };
  const update = () => {
    for (let pass = 0; pass <= blocks.length; pass += 1)
      if (![...blocks].map(settle).includes(true)) return;
  };
  form.addEventListener('change', update);
  form.addEventListener('input', update);
  update();
})();`;

/** The script, when one of the signer's fields has conditions the page follows. */
export const shownScript = (nonce: string, fill: Fill): Html | '' =>
  fill.mine.map(onPage(fill.mine, fill.answered)).some((treated) => treated._tag === 'Follow')
    ? safe`<script nonce="${nonce}">${trusted(SHOWN_SCRIPT)}</script>`
    : '';
