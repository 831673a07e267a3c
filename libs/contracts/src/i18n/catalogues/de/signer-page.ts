import type { Messages } from '../../catalogue.js';
import type { signerPage as english } from '../en/signer-page.js';

/** German: signer pages: the shell (the document, the fields, signing and declining). */
export const signerPage: Messages<typeof english> = {
  'page.skip': 'Zum Inhalt springen',
  'page.title': 'Unterschreiben: {contracts} · {site}',
  'page.message': 'Eine Nachricht von {site}',
  'page.from': '{site} bittet Sie, Folgendes zu prüfen und zu unterschreiben',
  'page.expires': 'Bitte unterschreiben Sie vor dem {date} (UTC).',
  'page.errors':
    '{count, plural, one {Bitte korrigieren Sie diesen Punkt} other {Bitte korrigieren Sie diese # Punkte}}',
  'page.pdfIntro': 'Dieser Vertrag ist ein PDF-Dokument.',
  'page.pdfOpen': '„{name}“ öffnen (PDF)',
  'page.pdfLabel': '{name} (PDF)',
  'page.pdfFallback': 'Ihr Browser kann das PDF hier nicht anzeigen:',
  'page.pdfFallbackLink': 'PDF öffnen',
  'page.prefilled': 'Vorausgefüllte Angaben',
  'page.yes': 'Ja',
  'page.no': 'Nein',
  'page.required': '(Pflichtfeld)',
  'page.choose': 'Bitte wählen…',
  'page.noAnswer': 'Keine Angabe',
  'page.asks.email': 'Eine E-Mail-Adresse, z. B. name@example.com',
  'page.asks.digits': 'Nur Ziffern, z. B. 12345',
  'page.asks.phone': 'Eine 10-stellige Telefonnummer, z. B. 555-014-3000',
  'page.asks.zip': 'Eine US-Postleitzahl (ZIP), z. B. 12345 oder 12345-6789',
  'page.asks.letters':
    "Nur Buchstaben, mit Leerzeichen, Bindestrichen oder Apostrophen zwischen Wörtern, z. B. Anne-Marie O'Neil",
  'page.asks.ssn': 'Eine US-Sozialversicherungsnummer (SSN), z. B. 123-45-6789',
  'page.asks.ein': 'Eine US-Arbeitgeber-Identifikationsnummer (EIN), z. B. 12-3456789',
  'page.asks.routing': 'Eine 9-stellige US-Bankleitzahl (Routing Number), z. B. 021000021',
  'page.asks.ukPostcode': 'Eine britische Postleitzahl, z. B. SW1A 1AA',
  'page.asks.caPostalCode': 'Eine kanadische Postleitzahl, z. B. K1A 0B1',
  'page.asks.iban': 'Eine internationale Kontonummer (IBAN), z. B. DE89 3704 0044 0532 0130 00',
  'page.asks.atLeast': 'Mindestens {min} Zeichen',
  'page.askedIfTicked': 'Nur gefragt, wenn „{label}“ angekreuzt ist.',
  'page.askedIfChosen': 'Nur gefragt, wenn bei „{label}“ „{option}“ gewählt ist.',
  'page.problem': '{label}: {message}',
  'page.yourName': 'Ihr Name',
  'page.consentLabel': 'Zustimmung',
  'page.reasonLabel': 'Grund',
  'page.yourPart': 'Ihr Teil',
  'page.requiredHint': 'Mit (Pflichtfeld) gekennzeichnete Felder müssen ausgefüllt werden.',
  'page.dateSigned':
    '{names}: wird mit dem Datum ausgefüllt, an dem Sie unterschreiben (UTC, als JJJJ-MM-TT).',
  'page.signatureLegend': 'Ihre Unterschrift',
  'page.typeName': 'Geben Sie Ihren vollständigen Namen ein',
  'page.typeNameHint': 'Ihr eingegebener Name ist Ihre Unterschrift.',
  'page.draw': 'Sie können Ihre Unterschrift auch zeichnen (optional)',
  'page.clearDrawing': 'Zeichnung löschen',
  'page.consent':
    'Ich habe das obige Dokument geprüft. Ich bin damit einverstanden, es elektronisch zu unterschreiben: Mein eingegebener Name (und meine Zeichnung, falls ich eine anfertige) ist meine Unterschrift und bindet mich wie eine handschriftliche Unterschrift, und {site} darf dieses Dokument elektronisch aufbewahren und mir zusenden.',
  'page.fingerprint': 'Fingerabdruck des Dokuments (SHA-256):',
  'page.sign': 'Unterschreiben',
  'page.declineSummary': 'Unterschrift ablehnen',
  'page.declineLabel': 'Teilen Sie {site} mit, warum Sie ablehnen',
  'page.declineHint': 'Eine Ablehnung beendet diese Anfrage für alle Unterzeichnenden.',
  'page.declineButton': 'Ablehnen',
  'page.reassignSummary': 'Soll jemand anderes unterschreiben?',
  'page.reassignIntro':
    '{site} erlaubt Ihnen, eine andere Person zu bitten, an Ihrer Stelle zu unterschreiben. Sie erhält einen eigenen Link per E-Mail, und Ihr Link funktioniert dann nicht mehr.',
  'page.reassignEmail': 'Ihre E-Mail-Adresse',
  'page.reassignNote': 'Eine Nachricht an diese Person (optional)',
  'page.reassignNoteHint': 'Sie steht in der E-Mail, die sie um die Unterschrift bittet.',
  'page.reassignButton': 'Um Unterschrift bitten',
  'page.footer': 'Anfrage {id}. Diese Seite ist nur für {email} bestimmt: Leiten Sie den Link nicht weiter.',
  'page.footerNoEmail':
    'Anfrage {id}. Diese Seite ist nur für die eingeladene Person bestimmt: Leiten Sie den Link nicht weiter.',
  'page.staleForm':
    'Diese Seite war lange geöffnet. Bitte prüfen Sie das Dokument und senden Sie es erneut ab.',
  'page.documentChanged':
    'Das Dokument ist nicht mehr das, das diese Seite gezeigt hat. Bitte lesen Sie es vor dem Unterschreiben erneut.',
};
