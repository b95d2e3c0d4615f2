// The part of madge's API the import-cycle test and scripts/import-figures.ts use (madge ships no types,
// and no @types package is added for so little).
declare module 'madge' {
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
  }
  interface MadgeResult {
    /** Each file and the files it imports, relative to the base directory. */
    obj(): Record<string, string[]>;
    /** Each import circle as the files along it. */
    circular(): string[][];
    /** Files madge could not resolve or parse. */
    warnings(): { skipped: string[] };
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
