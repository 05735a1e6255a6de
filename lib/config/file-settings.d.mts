export declare const DEFAULT_DATA_DIR: string;
export declare const FILE_SETTINGS: readonly string[];
