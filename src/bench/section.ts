/** A section of `npm run bench`: a name for --only, and what it measures and prints. */
export interface Section {
  readonly name: string;
  run(options: { readonly seconds: number; readonly quick: boolean }): Promise<void>;
}
