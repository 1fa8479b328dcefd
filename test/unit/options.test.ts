import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { integer, parsePositiveInt } from '../../src/commands/shared/options.js';

describe('integer options: one family', () => {
  it('accepts whole numbers in range, with spaces around', () => {
    expect(integer()('0')).toBe(0);
    expect(integer({ max: 10 })(' 10 ')).toBe(10);
    expect(parsePositiveInt('1')).toBe(1);
  });

  it.each(['-1', '1.5', '1e3', '0x10', '', 'ten', '9007199254740993'])('refuses %j alike', (value) => {
    expect(() => integer()(value)).toThrow(InvalidArgumentError);
  });

  it('says what it expected in the unit of the option', () => {
    expect(() => parsePositiveInt('0')).toThrow('expected a whole number of 1 or more');
    expect(() => integer({ unit: 'port', max: 65535 })('70000')).toThrow('expected a port from 0 to 65535');
  });
});
