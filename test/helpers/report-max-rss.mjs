// Preloaded into a child process (`node --import <this file>`) by tests that bound its memory: when the
// process exits it writes its peak resident set size (getrusage's ru_maxrss, in KiB) to the file named by
// RATEDESK_TEST_MAX_RSS_FILE. Read at exit, so no sampling can miss the peak.
import { writeFileSync } from 'node:fs';

const file = process.env.RATEDESK_TEST_MAX_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
