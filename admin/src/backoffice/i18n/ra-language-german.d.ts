// ra-language-german ships without types: it is one object of react-admin's interface texts.
declare module 'ra-language-german' {
  import type { TranslationMessages } from 'ra-core';
  const messages: TranslationMessages;
  export default messages;
}
