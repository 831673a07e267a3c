import { DockerfileParser, type Instruction } from 'dockerfile-ast';

export interface Stage {
  readonly name: string | undefined;
  /** The base image with build arguments' defaults substituted. */
  readonly image: string;
  readonly instructions: readonly Instruction[];
}

/** Splits a Dockerfile into its stages, resolving `FROM ${ARG}` against the ARGs declared before the first FROM. */
export const parseStages = (source: string): Stage[] => {
  const dockerfile = DockerfileParser.parse(source);
  const args = new Map<string, string>();
  const stages: { name: string | undefined; image: string; instructions: Instruction[] }[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword === 'ARG' && stages.length === 0) {
      const [assignment = ''] = instruction.getArguments().map((a) => a.getValue());
      const [name = '', value = ''] = assignment.split(/=(.*)/s);
      args.set(name, value);
    } else if (keyword === 'FROM') {
      const [image = '', as, name] = instruction.getArguments().map((a) => a.getValue());
      stages.push({
        name: as?.toUpperCase() === 'AS' ? name : undefined,
        image: image.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, arg: string) => args.get(arg) ?? ''),
        instructions: [],
      });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
};

/** The exec-form array of CMD, ENTRYPOINT or HEALTHCHECK CMD, or undefined for the shell form. */
export const execForm = (instruction: Instruction): string[] | undefined => {
  const text = instruction
    .getArgumentsContent()!
    .replace(/\\\n/g, ' ')
    .replace(/^(\s*--[a-z-]+=\S+)*\s*/, '')
    .replace(/^CMD\s+/, '')
    .trim();
  if (!text.startsWith('[')) return undefined;
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string') ? parsed : undefined;
};

export const flagsOf = (instruction: Instruction): Map<string, string> =>
  new Map(
    (instruction as Instruction & { getFlags(): { getName(): string; getValue(): string | null }[] })
      .getFlags()
      .map((flag) => [flag.getName(), flag.getValue() ?? '']),
  );

/** A RUN instruction's shell text, continuation lines joined. */
export const runText = (instruction: Instruction): string =>
  instruction
    .getArguments()
    .map((a) => a.getValue())
    .join(' ');
