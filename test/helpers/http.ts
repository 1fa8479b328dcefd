/** fetch + JSON for tests: the parsed body typed loosely. */
export async function getJson(url: string, init?: RequestInit): Promise<any> {
  return (await fetch(url, init)).json();
}
