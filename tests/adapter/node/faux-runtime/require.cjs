throw new Error('faux-runtime is ESM-only: loaded through require');
