// The Lighthouse part in a process of its own, for the end-to-end tests: its options as JSON in
// argv[2], its figures as the last line printed, JSON. Lighthouse runs its functions in the page from
// their source; under the test runner's loader that source calls esbuild's `__name`, which the page
// lacks ("__name is not defined"). Here they load as in `npm run bench`.
import { benchLighthouse, type LighthouseOptions } from './lighthouse.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as LighthouseOptions;
const figures = await benchLighthouse(options);
console.log(JSON.stringify(figures));
process.exit(0);
