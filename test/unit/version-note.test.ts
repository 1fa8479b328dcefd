import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf } from '../helpers/library.js';

// cmake(1)'s options (a twenty-fourth new user's trial): the version note right under an option
// ("New in version 3.24.", Sphinx's versionadded) was taken for the option's definition, and the
// next option's name with its syntax (`-L[A][H]`) for code, so its text was read as --fresh's:
// "What does the --fresh option of cmake do?" was answered "--fresh: New in version 3.24.
// --fresh: List CACHE variables will run CMake…".
const OPTIONS = docLines('cmake/manual-cmake.1.html', 0, [
  'Make warnings for usage of deprecated macros and functions, that are meant for the author of the CMakeLists.txt files, not errors.',
  '--fresh',
  'New in version 3.24.',
  'Perform a fresh configuration of the build tree. This removes any existing CMakeCache.txt file and associated CMakeFiles/ directory, and recreates them from scratch.',
  '-L[A][H]',
  'List non-advanced cached variables.',
  'List CACHE variables will run CMake and list all the variables from the CMake CACHE that are not marked as INTERNAL or ADVANCED.',
  '-N',
  'View mode only.',
  'Only load the cache. Do not actually run configure and generate steps.',
]);

describe("an option's version note", () => {
  it('is not what the option does; the line after it is', async () => {
    const content = await answerOf(libraryOf([OPTIONS]), 'What does the --fresh option of cmake do?');
    expect(content).toMatch(/^--fresh: Perform a fresh configuration of the build tree\./);
    expect(content).not.toContain('List CACHE variables');
  });

  it('answers when the option came, and the next option with its syntax heads its own text', async () => {
    const content = await answerOf(
      libraryOf([OPTIONS]),
      'In which version was the --fresh option of cmake added?',
    );
    expect(content).toMatch(/^--fresh: New in version 3\.24\./);
    expect(content).not.toContain('List CACHE variables');
    const listed = await answerOf(libraryOf([OPTIONS]), 'Which cmake option lists the cached variables?');
    expect(listed).toMatch(/^-L\[A\]\[H\]: List non-advanced cached variables\./);
  });
});
