import { describe, expect, it } from 'vitest';
import { followUpOf, libraryOf } from '../helpers/library.js';
import type { Chunk } from '../../src/server/state/model.js';

// A new user's trial 32 (q45, q46): powertop(8) as a PDF. "What file name does powertop use for
// its CSV report if I don't give one?" was answered (powertop.csv); the follow-up "And what about
// the HTML report?" was answered "-r, --html[=filename]: Generate an HTML report.", without the
// sentence after it that names powertop.html: its words ask for no default, and the question
// before's did.
const page = (n: number, text: string): Chunk => ({
  id: `file_1:${n}`,
  fileId: 'file_1',
  filename: 'hardware/powertop/powertop.8.pdf',
  pages: [1, 1],
  text,
});
// Its first page's chunks as kb serve's reading cuts them.
const PAGE = [
  page(
    0,
    [
      'NAME',
      'powertop - a power consumption and power management diagnosis tool.',
      'SYNOPSIS',
      'powertop [options]',
      'DESCRIPTION',
      'powertop is a program that helps to diagnose various issues with power consumption and power management. It also has an interactive mode allowing one to experiment with various power management settings. When invoking powertop without arguments powertop starts in interactive mode.',
      'OPTIONS',
      '--auto-tune',
      'Set all tunable options to their good setting without interaction.',
      '-c, --calibrate',
      'Runs powertop in calibration mode. When running on battery, powertop can track power consumption as well as system activity. When there are enough measurements, powertop can start to report power estimates. One can get more accurate estimates by using this option to enable a calibration cycle.',
    ].join('\n'),
  ),
  page(
    1,
    [
      'OPTIONS',
      '-c, --calibrate',
      'When there are enough measurements, powertop can start to report power estimates. One can get more accurate estimates by using this option to enable a calibration cycle. This will cycle through various display levels and USB device activities and workloads.',
      '-C, --csv[=filename]',
      'Generate a CSV report. If a filename is not specified then the default name powertop.csv is used. The CSV report can be used for reporting and data analysis.',
      '--debug',
      'Run in debug mode.',
      '--extech=devnode',
      'Use the Extech Power Analyzer for measurements. This allows one to specify the serial device node of the serial to USB adaptor connecting to the Extech Power Analyzer, for example /dev/ttyUSB0.',
      '-r, --html[=filename]',
      'Generate an HTML report.',
    ].join('\n'),
  ),
  page(
    2,
    [
      'OPTIONS',
      'This allows one to specify the serial device node of the serial to USB adaptor connecting to the Extech Power Analyzer, for example /dev/ttyUSB0.',
      '-r, --html[=filename]',
      'Generate an HTML report. If a filename is not specified then the default name powertop.html is used. The HTML report can be sent to others to help diagnose power issues.',
      '-i, --iteration[=iterations]',
      'Number of times to run each test.',
      '-q, --quiet',
      'Suppress stderr output.',
      '-t, --time[=seconds]',
      'Generate a report for a specified number of seconds.',
      '-w, --workload[=workload]',
      'Execute workload file as a part of calibration before making a report.',
      '-V, --version',
      'Print version information and exit.',
      '-h, --help',
      'Show the help message and exit.',
      'COMMANDS',
      'In interactive mode, the following key bindings are available:',
      'Tab Show next tab',
    ].join('\n'),
  ),
];

describe('a follow-up that asks what the one before asked, of another subject', () => {
  it('asks for the same kind of answer ("And what about the HTML report?")', async () => {
    const library = libraryOf(PAGE, { powertop: 5, csv: 5, html: 5, report: 3, file: 1.5, name: 1.5 });
    const question = "What file name does powertop use for its CSV report if I don't give one?";
    const { first, next } = await followUpOf(library, question, 'And what about the HTML report?');
    // With the option it is said of: a later sentence of its definition.
    expect(first.content).toMatch(/^-C, --csv\[=filename\]: .*the default name powertop\.csv is used\./s);
    expect(next.content).toMatch(/^-r, --html\[=filename\]: .*the default name powertop\.html is used\./s);
    expect(next.content).not.toContain('powertop.csv');
  });
});
