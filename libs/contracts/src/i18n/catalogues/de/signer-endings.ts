import type { Messages } from '../../catalogue.js';
import type { signerEndings as english } from '../en/signer-endings.js';

/** German: signer pages: refusals, endings and the problems a signer is shown. */
export const signerEndings: Messages<typeof english> = {
  'refusal.invalid.title': 'Dieser Link ist ungültig',
  'refusal.invalid.message': 'Der Link wurde möglicherweise verändert oder abgeschnitten.',
  'refusal.invalid.detail':
    'Öffnen Sie ihn erneut aus der erhaltenen Nachricht oder bitten Sie den Absender um einen neuen.',
  'refusal.notFound.title': 'Wir finden dieses Dokument nicht',
  'refusal.notFound.message': 'Unter diesem Link gibt es kein Dokument zu unterschreiben.',
  'refusal.notFound.detail': 'Bitten Sie den Absender um einen neuen Link.',
  'refusal.notSent.title': 'Dieses Dokument ist noch nicht bereit',
  'refusal.notSent.message': 'Der Absender hat es noch nicht zur Unterschrift versendet.',
  'refusal.notSent.detail': 'Öffnen Sie den Link erneut, sobald Sie benachrichtigt werden.',
  'refusal.expired.title': 'Dieser Link ist abgelaufen',
  'refusal.expired.message': 'Die Frist zum Unterschreiben dieses Dokuments ist abgelaufen.',
  'refusal.expired.detail':
    'Bitten Sie den Absender, es erneut zu senden, falls Sie noch unterschreiben müssen.',
  'refusal.replaced.title': 'Dieser Link wurde ersetzt',
  'refusal.replaced.message':
    'Der Absender hat Ihnen einen neueren Link zu diesem Dokument geschickt, daher öffnet sich dieser nicht mehr.',
  'refusal.replaced.detail':
    'Öffnen Sie die neueste Nachricht zu diesem Dokument oder bitten Sie den Absender um einen neuen Link.',
  'refusal.signerReplaced.title': 'Ihre Unterschrift wird nicht mehr benötigt',
  'refusal.signerReplaced.message':
    'Eine andere Person wurde gebeten, dieses Dokument an Ihrer Stelle zu unterschreiben, daher öffnet sich dieser Link nicht mehr.',
  'refusal.signerReplaced.detail':
    'Von Ihnen wird nichts weiter benötigt. Wenn Sie dies für einen Irrtum halten, wenden Sie sich an den Absender.',
  'refusal.linkExpired.message': 'Links zum Unterschreiben gelten nur begrenzte Zeit, und dieser ist zu alt.',
  'refusal.linkExpired.detail':
    'Bitten Sie den Absender um einen neuen Link: Er kann Ihnen für dieses Dokument einen neuen schicken.',
  'refusal.notYourTurn.title': 'Sie sind noch nicht mit dem Unterschreiben an der Reihe',
  'refusal.notYourTurn.message':
    'Dieses Dokument wird in einer festen Reihenfolge unterschrieben, und noch haben nicht alle vor Ihnen unterschrieben.',
  'refusal.notYourTurn.detail':
    'Sie werden benachrichtigt, wenn Sie an der Reihe sind. Dann öffnet derselbe Link das Dokument zum Unterschreiben.',
  'refusal.cannotSign.title': 'Dieses Dokument kann nicht unterschrieben werden',
  'refusal.unshown.message':
    'Es enthält Inhalte, die diese Seite nicht anzeigen kann, sodass Sie nicht alles sehen würden, was Sie unterschreiben.',
  'refusal.unshown.detail': 'Bitten Sie den Absender, es mit einer neuen Vorlage erneut zu senden.',
  'refusal.notOpen.message': 'Es ist nicht zur Unterschrift freigegeben.',
  'refusal.cancelled.title': 'Diese Anfrage wurde storniert',
  'refusal.cancelled.message': 'Der Absender hat sie storniert: Es gibt nichts zu unterschreiben.',
  'refusal.youDeclined.title': 'Sie haben die Unterschrift abgelehnt',
  'refusal.youDeclined.message': 'Der Absender wurde informiert.',
  'refusal.declined.title': 'Diese Anfrage wurde abgelehnt',
  'refusal.declined.message':
    'Eine unterzeichnende Person hat sie abgelehnt, daher kann sie nicht mehr unterschrieben werden.',
  'refusal.complete.title': 'Dieses Dokument ist vollständig',
  'refusal.complete.message': 'Alle haben es unterschrieben.',
  'refusal.completeSigned.message': 'Alle haben es unterschrieben; Sie haben am {date} (UTC) unterschrieben.',
  'refusal.incomplete.title': 'Dieser Link ist unvollständig',
  'refusal.incomplete.message': 'Ein Teil des Links fehlt.',
  'refusal.incomplete.detail':
    'Öffnen Sie ihn erneut aus der erhaltenen Nachricht; kopieren Sie beim Einfügen die vollständige Adresse.',
  'error.tooLarge': 'Es wurden zu viele Daten gesendet',
  'error.unreadable': 'Diese Anfrage konnte nicht gelesen werden',
  'error.ours': 'Bei uns ist ein Fehler aufgetreten',
  'error.tryAgain': 'Bitte gehen Sie zurück und versuchen Sie es erneut.',
  'error.oursDetail': 'Es wurde nichts unterschrieben. Bitte versuchen Sie es gleich noch einmal.',
  'done.signed.title': 'Vielen Dank: Sie haben unterschrieben',
  'done.signed.message': 'Sie haben am {date} (UTC) unterschrieben.',
  'done.signed.complete': 'Alle haben unterschrieben: Das Dokument ist vollständig und liegt {site} vor.',
  'done.signed.waiting': 'Das Dokument ist vollständig, sobald auch die anderen unterschrieben haben.',
  'done.declined.message':
    '{site} wurde informiert, einschließlich Ihres Grundes. Es wurde nichts unterschrieben.',
  'form.refused.title': 'Dieses Formular konnte nicht angenommen werden',
  'form.notFromPage': 'Es stammt nicht von Ihrer Unterschriftsseite.',
  'form.openAgain': 'Öffnen Sie Ihren Unterschriftslink erneut und senden Sie das Formular von dort ab.',
  'form.otherSite': 'Es wurde von einer anderen Website gesendet.',
  'form.openAndSubmit': 'Öffnen Sie Ihren Unterschriftslink und senden Sie das Formular von dort ab.',
  'form.submitFromPage': 'Senden Sie das Formular von Ihrer Unterschriftsseite ab.',
  'signed.already.title': 'Sie haben bereits unterschrieben',
  'signed.already.message': 'Sie haben am {date} (UTC) unterschrieben. Sie müssen nichts weiter tun.',
  'signed.already.detail': 'Das Dokument ist vollständig, sobald alle unterschrieben haben.',
  'signed.cannotDecline': 'Ein unterschriebenes Dokument kann nachträglich nicht abgelehnt werden.',
  'drawing.unreadable.title': 'Die gezeichnete Unterschrift konnte nicht gelesen werden',
  'drawing.unreadable.message': 'Diese Zeichnung kann von dieser Seite nicht gespeichert werden.',
  'drawing.notPng': 'Sie ist kein PNG-Bild.',
  'drawing.tooLarge': 'Sie ist zu groß.',
  'drawing.oddSize': 'Sie hat ungewöhnliche Abmessungen.',
  'drawing.unreadable.detail':
    'Gehen Sie zurück, löschen Sie die Zeichnung und zeichnen Sie neu, oder unterschreiben Sie nur mit Ihrem eingegebenen Namen.',
  'document.codeFirst.title': 'Geben Sie zuerst Ihren Code ein',
  'document.codeFirst.message':
    'Dieses Dokument öffnet sich, sobald Sie Ihren Code auf der Unterschriftsseite eingegeben haben.',
  'document.none.title': 'Dokument nicht gefunden',
  'document.none.message': 'Diese Anfrage hat keinen PDF-Vertrag mit dieser Nummer.',
  'code.title': 'Code eingeben · {site}',
  'code.from': '{site} bittet Sie, Ihre Identität zu bestätigen',
  'code.heading': 'Code eingeben',
  'code.lead.accessCode':
    '{site} hat Ihnen für dieses Dokument einen Zugangscode gegeben (nicht in der Nachricht mit diesem Link). Geben Sie ihn ein, um das Dokument zu öffnen.',
  'code.lead.email':
    'Wir haben einen 6-stelligen Code an {to} gesendet. Geben Sie ihn ein, um das Dokument zu öffnen. Er gilt einmalig für 10 Minuten.',
  'code.lead.sms':
    'Wir haben einen 6-stelligen Code per SMS an {to} gesendet. Geben Sie ihn ein, um das Dokument zu öffnen. Er gilt einmalig für 10 Minuten.',
  'code.yourAddress': 'Ihre Adresse',
  'code.yourMobile': 'Ihr Mobiltelefon',
  'code.locked':
    'Zu viele falsche Codes. Dieser Link ist bis {until} gesperrt; versuchen Sie es dann erneut.',
  'code.smsLimit':
    'Wir können Ihnen vor {until} keinen weiteren Code per SMS senden. Verwenden Sie den zuletzt gesendeten Code oder versuchen Sie es dann erneut.',
  'code.yourCode': 'Ihr Code',
  'code.sixDigit': '6-stelliger Code',
  'code.accessCode': 'Zugangscode',
  'code.lockHint': 'Nach 5 falschen Codes wird der Link für 15 Minuten gesperrt.',
  'code.continue': 'Weiter',
  'code.noCode': 'Kein Code erhalten oder abgelaufen?',
  'code.sendNew': 'Neuen Code senden',
  'code.wrong':
    'Dieser Code ist nicht richtig. {left, plural, one {Noch # Versuch} other {Noch # Versuche}}, bevor der Link für 15 Minuten gesperrt wird.',
  'code.expired':
    'Dieser Code ist abgelaufen oder wurde bereits verwendet. Fordern Sie unten einen neuen Code an.',
  'code.sentNew': 'Wir haben Ihnen einen neuen Code gesendet.',
  'copy.incomplete': 'Öffnen Sie ihn erneut aus der erhaltenen E-Mail.',
  'copy.expired': 'Bitten Sie den Absender um eine Kopie des unterschriebenen Dokuments.',
  'copy.notFound': 'Unter diesem Link gibt es kein Dokument.',
  'copy.notComplete.title': 'Dieses Dokument ist nicht vollständig',
  'copy.notComplete.message': 'Noch haben nicht alle unterschrieben.',
  'copy.unavailable.title': 'Ihre Kopie ist noch nicht bereit',
  'copy.unavailable.message':
    'Alle haben unterschrieben; das unterschriebene Dokument wird noch erstellt. Versuchen Sie es in einigen Minuten erneut.',
  'problem.tickOrEmpty': 'muss angekreuzt oder leer gelassen werden',
  'problem.mustTick': 'muss zum Unterschreiben angekreuzt sein',
  'problem.chooseOption': 'wählen Sie eine der Optionen',
  'problem.chooseShownOption': 'wählen Sie eine der angezeigten Optionen',
  'problem.required': 'ist ein Pflichtfeld',
  'problem.oneLine': 'muss einfacher Text in einer Zeile sein',
  'problem.notHere': 'kann hier nicht ausgefüllt werden',
  'problem.date': 'muss ein Datum sein, etwa 2030-01-31',
  'problem.onOrAfter': 'muss am {date} oder später sein',
  'problem.onOrBefore': 'muss am {date} oder früher sein',
  'problem.digits': 'darf nur Ziffern enthalten, z. B. 12345',
  'problem.phone': 'muss eine 10-stellige Telefonnummer sein, z. B. 555-014-3000',
  'problem.zip': 'muss eine US-Postleitzahl (ZIP) sein, z. B. 12345 oder 12345-6789',
  'problem.letters': "darf nur Buchstaben enthalten, z. B. Anne-Marie O'Neil",
  'problem.ssn': 'muss eine US-Sozialversicherungsnummer (SSN) sein, z. B. 123-45-6789',
  'problem.ein': 'muss eine US-Arbeitgeber-Identifikationsnummer (EIN) sein, z. B. 12-3456789',
  'problem.routing': 'muss eine 9-stellige US-Bankleitzahl (Routing Number) sein, z. B. 021000021',
  'problem.ukPostcode': 'muss eine britische Postleitzahl sein, z. B. SW1A 1AA',
  'problem.caPostalCode': 'muss eine kanadische Postleitzahl sein, z. B. K1A 0B1',
  'problem.iban': 'muss eine IBAN sein, z. B. DE89 3704 0044 0532 0130 00',
  'problem.vatNumber': 'muss eine europäische USt-IdNr. mit Ländercode sein, z. B. DE136695976',
  'problem.typeName': 'geben Sie zum Unterschreiben Ihren vollständigen Namen ein',
  'problem.consent': 'kreuzen Sie das Kästchen an, um der elektronischen Unterschrift zuzustimmen',
  'problem.reason': 'teilen Sie dem Absender mit, warum Sie ablehnen',
  'problem.plainText': 'muss einfacher Text sein',
  'done.reassigned.title': 'Sie haben eine andere Person um die Unterschrift gebeten',
  'done.reassigned.message':
    '{email} hat per E-Mail einen Link erhalten, um an Ihrer Stelle zu unterschreiben, und {site} sieht, dass Sie darum gebeten haben. Von Ihnen wird nichts weiter benötigt.',
  'reassign.refused.title': 'Sie können diese Anfrage nicht weitergeben',
  'reassign.refused.message':
    'Der Absender hat den Unterzeichnenden dieser Anfrage nicht erlaubt, eine andere Person um die Unterschrift zu bitten. Wenden Sie sich an ihn, wenn jemand anderes unterschreiben soll.',
  'problem.reassignEmpty': 'geben Sie die E-Mail-Adresse der Person ein, die unterschreiben soll',
  'problem.reassignInvalid': 'muss eine E-Mail-Adresse sein, z. B. name@example.com',
  'problem.reassignSelf':
    'ist Ihre eigene Adresse: geben Sie die Adresse der Person an, die unterschreiben soll',
  'problem.reassignTaken': 'unterschreibt diese Anfrage bereits',
  'problem.atMost': 'darf höchstens {max} Zeichen lang sein',
  'problem.atLeast': 'muss mindestens {min} Zeichen lang sein',
  'problem.nameAtMost': 'muss Ihr Name sein, höchstens {max} Zeichen',
};
