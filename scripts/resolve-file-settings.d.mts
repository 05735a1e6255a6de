export declare function resolveFileSettings(
  environment: Record<string, string | undefined>,
  places: { cwd: string; projectRoot: string },
): void;
