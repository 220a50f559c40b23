/**
 * The master key (SECRET_KEY) of benchmark and profiling runs that are given none: fixed, so that a
 * database reused between runs (DATABASE_URL) still opens. It is public: never use it for real data.
 */
export const BENCH_SECRET_KEY = 'YmVuY2htYXJrcyBvbmx5LCBuZXZlciByZWFsIGRhdGE=';
