export declare function sourceFiles(root?: string): string[];
export declare function sourcesDigest(root?: string): string;
export declare function installDigest(root?: string): string;
export declare function staleBuildReason(root?: string): string | undefined;
