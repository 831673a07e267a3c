import {
  PDFCheckBox,
  PDFDropdown,
  PDFOptionList,
  PDFRadioGroup,
  PDFSignature,
  PDFTextField,
  type PDFField,
} from '@cantoo/pdf-lib';

/**
 * What kind of input an AcroForm field takes, with the field as its pdf-lib class: the one
 * place that sorts pdf-lib's field classes, for reading a template's fields and filling them.
 * Push buttons take no input: undefined.
 */
export type PdfFormField =
  | { readonly kind: 'text'; readonly field: PDFTextField }
  | { readonly kind: 'checkbox'; readonly field: PDFCheckBox }
  | { readonly kind: 'choice'; readonly field: PDFRadioGroup | PDFDropdown | PDFOptionList }
  | { readonly kind: 'signature'; readonly field: PDFSignature };

export const pdfFormField = (field: PDFField): PdfFormField | undefined => {
  if (field instanceof PDFTextField) return { kind: 'text', field };
  if (field instanceof PDFCheckBox) return { kind: 'checkbox', field };
  if (field instanceof PDFRadioGroup || field instanceof PDFDropdown || field instanceof PDFOptionList)
    return { kind: 'choice', field };
  if (field instanceof PDFSignature) return { kind: 'signature', field };
  return undefined;
};
