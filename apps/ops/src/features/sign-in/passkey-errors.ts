/**
 * What went wrong with the browser's passkey step, in words a person can act on. The browser
 * reports a cancelled prompt, a timeout and a refused one alike (NotAllowedError).
 */
export function passkeyErrorText(err: unknown, creating: boolean): string | null {
  if (!(err instanceof Error)) return null;
  switch (err.name) {
    case 'NotAllowedError':
    case 'AbortError':
      return creating
        ? 'The passkey was not created: the request was cancelled or timed out. Press “Create a passkey” to try again.'
        : 'The passkey was not used: the request was cancelled or timed out. Press “Use my passkey” to try again.';
    case 'InvalidStateError':
      return 'This device already holds a passkey for the console. Press “Use my passkey” with it instead, or create one on another device.';
    case 'NotSupportedError':
      return 'This browser cannot use passkeys. Use an up-to-date Chrome, Edge, Safari or Firefox.';
    case 'SecurityError':
      return 'Passkeys work only on the console’s own address. Open the console from its usual link and try again.';
    default:
      return null;
  }
}
