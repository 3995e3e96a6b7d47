/** Bench sections that measure the kit (suite, properties, export); filled in as those parts land. */
export interface Section {
  readonly name: string;
  run(options: { readonly seconds: number; readonly quick: boolean }): Promise<void>;
}

export const extraSections: readonly Section[] = [];
