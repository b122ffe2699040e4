import { BooleanInput, DateInput, required, TextInput } from 'react-admin';
import { Section } from '../common/Section.tsx';

/** The vendor's own data, the same on create and edit; labels come from resources.vendorsummary.fields. */
export function VendorFields() {
  return (
    <>
      <Section title="app.vendor.section_person">
        <TextInput source="licenseId" validate={required()} />
        <TextInput source="firstName" validate={required()} />
        <TextInput source="lastName" />
        <TextInput source="language" />
        <TextInput source="email" type="email" />
        <TextInput source="telephone" />
        <TextInput source="address" />
        <TextInput source="postCode" />
      </Section>
      <Section title="app.vendor.section_registration">
        <DateInput source="registrationDate" />
        <DateInput source="vendorSince" />
        <BooleanInput source="hasBankAccount" />
        <BooleanInput source="hasSmartphone" />
        <BooleanInput source="onlineMap" />
        <BooleanInput source="isDisabled" />
        <TextInput source="accountProofUrl" type="url" />
        <TextInput source="debt" multiline />
      </Section>
    </>
  );
}
