// The pages after the card page, in a script of their own: the first screen of a vendor's shop does
// not carry them (docs/shop.md, the first screen's budget).
export { Failure } from './Failure.tsx';
export { Pdf } from './Pdf.tsx';
export { ReceiptPage } from './Receipt.tsx';
export { Success } from './Success.tsx';
