export declare const BASELINE_HEADERS: readonly { key: string; value: string }[];
