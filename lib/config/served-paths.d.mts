export declare const NEXT_ONLY_API_PREFIXES: readonly string[];
export declare const METRICS_PATH: string;
export declare function servedByApiServer(pathname: string): boolean;
export declare const API_SERVER_BUNDLE: readonly string[];
