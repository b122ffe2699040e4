// node-polyglot (the back office's translations) requires the `object.entries` polyfill, which brings
// eight small packages (~5 KB gzip) to the first screen; every browser the back office supports
// (es2022) has Object.entries itself. CommonJS, because node-polyglot require()s it.
module.exports = Object.entries;
