import { IntlMessageFormat } from 'intl-messageformat';

/** One language's messages in ICU MessageFormat, by key. */
export type Catalogue = Readonly<Record<string, string>>;

/**
 * A translation of a reference catalogue (or of one of its parts): exactly its keys, each a
 * message. A missing or extra key is a compile error; `catalogueProblems` checks the rest.
 */
export type Messages<Reference> = { readonly [Key in keyof Reference]: string };

/** What a message asks to be given: each placeholder's name and kind (`plural`, `select`, plain...). */
export const placeholdersOf = (message: string): ReadonlyMap<string, string> => {
  const found = new Map<string, string>();
  const kinds = ['literal', 'argument', 'number', 'date', 'time', 'select', 'plural', 'pound', 'tag'];
  interface Element {
    readonly type: number;
    readonly value?: unknown;
    readonly options?: Readonly<Record<string, { readonly value: readonly Element[] }>>;
    readonly children?: readonly Element[];
  }
  const walk = (elements: readonly Element[]): void => {
    for (const element of elements) {
      if (element.type >= 1 && element.type <= 6 && typeof element.value === 'string')
        found.set(element.value, kinds[element.type]!);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      walk(element.children ?? []);
    }
  };
  walk(new IntlMessageFormat(message, 'en', undefined, { ignoreTag: true }).getAst());
  return found;
};

const describe = (placeholders: ReadonlyMap<string, string>): string =>
  [...placeholders]
    .map(([name, kind]) => `${name}:${kind}`)
    .sort()
    .join(', ');

/**
 * Every way the catalogues disagree: a key one has and another lacks, a message that is
 * not valid ICU, or a message whose placeholders (names and kinds) differ from the
 * reference language's. Empty when they agree.
 */
export const catalogueProblems = (
  catalogues: Readonly<Record<string, Catalogue>>,
  reference: string,
): string[] => {
  const problems: string[] = [];
  const keys = new Set(Object.values(catalogues).flatMap((c) => Object.keys(c)));
  const base = catalogues[reference] ?? {};
  for (const [language, catalogue] of Object.entries(catalogues)) {
    for (const key of [...keys].sort()) {
      const message = catalogue[key];
      if (message === undefined) {
        problems.push(`${language}: lacks "${key}"`);
        continue;
      }
      let mine: ReadonlyMap<string, string>;
      try {
        mine = placeholdersOf(message);
      } catch (error) {
        problems.push(`${language}: "${key}" is not ICU MessageFormat (${(error as Error).message})`);
        continue;
      }
      const theirs = base[key];
      if (language === reference || theirs === undefined) continue;
      let expected: ReadonlyMap<string, string>;
      try {
        expected = placeholdersOf(theirs);
      } catch {
        continue;
      }
      if (describe(mine) !== describe(expected))
        problems.push(
          `${language}: "${key}" has placeholders {${describe(mine)}}, ${reference} has {${describe(expected)}}`,
        );
    }
  }
  return problems;
};
