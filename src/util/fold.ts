/** Case- and accent-insensitive form ("zoe" finds "Zoë"). */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('und');
}
