import type { Messages } from '../../catalogue.js';
import type { messages as english } from '../en/messages.js';

/** French: e-mails and SMS to signers and to the people of a Site. */
export const messages: Messages<typeof english> = {
  'email.hello': 'Bonjour,',
  'email.aSite': 'Un site',
  'email.contract': 'Contrat {id}',
  'email.list.none': 'un document',
  'email.list.more': '{names} et {count} autres',
  'email.list.and': '{names} et {last}',
  'email.documents': '{count, plural, one {un document} other {# documents}}',
  'email.sent.subject': '{site} vous a envoyé {names} à signer',
  'email.sent.lead': '{site} vous a envoyé {documents} à signer :',
  'email.reminder.subject': 'Rappel : {site} attend votre signature sur {names}',
  'email.reminder.ownSubject': 'Rappel : {subject}',
  'email.reminder.lastDaySubject': 'Dernier jour pour signer : {site} attend votre signature sur {names}',
  'email.reminder.lastDayOwnSubject': 'Dernier jour pour signer : {subject}',
  'email.reminder.lead': '{site} attend toujours votre signature sur {documents} :',
  'email.reviewHere': 'Relisez et signez ici :',
  'email.reviewButton': 'Relire et signer',
  'email.orOpen': 'Ou ouvrez ce lien :',
  'email.signBefore': 'Merci de signer avant le {date}.',
  'email.message': 'Un message de {site} :',
  'email.askedBy': '{who} vous a demandé de signer à sa place.',
  'email.note': 'Un mot de {who} :',
  'email.personal': 'Ce lien vous est personnel : ne le transférez pas.',
  'email.code.subject': 'Votre code pour signer pour {site} : {code}',
  'email.code.lead': 'Votre code pour ouvrir le document que {site} vous a envoyé :',
  'email.code.until':
    'Il fonctionne une seule fois, jusqu’à {until}. Si vous ne l’avez pas demandé, ignorez cet e-mail.',
  'email.code.tenMinutes': 'dans 10 minutes',
  'email.completed.subject': 'Terminé : {names} est signé par tous',
  'email.completed.lead': 'Tout le monde a signé {names}, que {site} avait envoyé pour signature.',
  'email.completed.download':
    'Téléchargez votre copie du document signé (PDF) avec le lien ci-dessous. Il fonctionne jusqu’à {until} ; conservez le fichier en lieu sûr.',
  'email.completed.thirtyDays': 'pendant 30 jours',
  'email.completed.link': 'Télécharger votre copie (PDF)',
  'email.declined.subject': 'Refusé : {names}',
  'email.declined.lead':
    '{who} a refusé de signer {names}, que {site} avait envoyé pour signature. La demande est close : vous n’avez plus rien à faire.',
  'email.declined.reason': 'Son motif : {reason}',
  'email.cancelled.subject': 'Annulé : {names}',
  'email.cancelled.lead':
    '{site} a annulé la demande de signature de {names}. Vous n’avez plus rien à faire et votre lien de signature ne fonctionne plus.',
  'email.cancelled.reason': 'Motif indiqué : {reason}',
  'email.replaced.subject': 'Plus nécessaire : {names}',
  'email.replaced.lead':
    '{site} a demandé à une autre personne de signer {names} à votre place, donc votre lien de signature ne fonctionne plus.',
  'embedded.used.title': 'Ce lien de signature a déjà été utilisé',
  'embedded.used.message': 'Pour votre sécurité, un lien de signature ne s’ouvre qu’une seule fois.',
  'embedded.again.detail':
    'Revenez à la page d’où vous venez et recommencez la signature : un nouveau lien s’ouvrira.',
  'embedded.expired.title': 'Ce lien de signature a expiré',
  'embedded.expired.message':
    'Les liens de signature ouverts dans un autre site fonctionnent pendant 5 minutes.',
  'embedded.unknown.title': 'Ce lien n’est pas valide',
  'embedded.unknown.message': 'Il n’y a aucun document à signer à ce lien.',
  'embedded.unknown.detail': 'Revenez à la page d’où vous venez et recommencez la signature.',
  'email.sender.completed.lead':
    'Tout le monde a signé {names}, que vous avez envoyé pour signature depuis {site}.',
  'email.sender.completed.where':
    'Le document signé (PDF) se trouve sur la page de la demande, avec sa piste d’audit.',
  'email.sender.declined.lead':
    '{who} a refusé de signer {names}, que vous avez envoyé pour signature depuis {site}. La demande est terminée.',
  'email.sender.expired.subject': 'Expiré sans toutes les signatures : {names}',
  'email.sender.expired.lead':
    '{names}, que vous avez envoyé pour signature depuis {site}, a expiré avant que tout le monde ait signé : ses liens de signature ne fonctionnent plus.',
  'email.sender.expired.again':
    'Pour l’envoyer à nouveau, ouvrez la demande et copiez-la dans un nouveau brouillon.',
  'email.sender.link': 'Ouvrir la demande',
  'email.sender.reassigned.subject': 'Une autre personne signera : {names}',
  'email.sender.reassigned.lead':
    '{from} a demandé à {to} de signer {names} à sa place, comme le permettait la demande que vous avez envoyée depuis {site}. {to} a reçu son propre lien par e-mail.',
  'sms.sent': '{site} vous a envoyé {names} à signer. Signez ici : {url}',
  'sms.reminder': 'Rappel : {site} attend votre signature sur {names}. Signez ici : {url}',
  'sms.reminder.lastDay':
    'Dernier jour pour signer : {site} attend votre signature sur {names}. Signez ici : {url}',
  'sms.completed': 'Tout le monde a signé {names}. Votre copie : {url}',
  'sms.declined': '{who} a refusé de signer {names}.',
  'sms.cancelled': '{site} a annulé la demande de signature de {names}. Vous n’avez plus rien à faire.',
  'sms.replaced':
    '{site} a demandé à une autre personne de signer {names} à votre place. Vous n’avez plus rien à faire.',
  'sms.code': '{code} est votre code pour signer pour {site}. Valable une fois, pendant 10 minutes.',
};
