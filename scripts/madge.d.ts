// The part of madge's Node API that scripts/check-cycles.ts uses (madge ships no types).
declare module 'madge' {
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string | object;
    excludeRegExp?: RegExp[];
    detectiveOptions?: Record<string, { skipTypeImports?: boolean; skipAsyncImports?: boolean }>;
  }
  interface MadgeInstance {
    /** Each file (relative to the base directory) and the files it imports. */
    obj(): Record<string, string[]>;
    /** Imports that did not resolve to a file (npm packages are left out as well). */
    warnings(): { skipped: string[] };
    /** The import cycles madge finds, each as the files on it. */
    circular(): string[][];
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeInstance>;
}
