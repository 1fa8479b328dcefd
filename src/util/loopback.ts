/** localhost, 127.x.x.x or [::1]: where plain http never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  return /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i.test(hostname);
}
